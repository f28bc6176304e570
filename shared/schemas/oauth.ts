import * as z from 'zod/mini';

/**
 * The consent route's wire contract (docs/oauth.md): the authorization request's own parameters,
 * forwarded as they came by the console's consent page, plus the user's answer. The route checks
 * every one of them again; this schema only says what shape they have.
 */
const text = (max: number) => z.string().check(z.maxLength(max));
export const oauthAuthorizeRequest = z.object({
  response_type: text(32),
  client_id: text(2048),
  redirect_uri: text(2048),
  code_challenge: text(128),
  code_challenge_method: text(16),
  state: z.optional(text(2048)),
  scope: z.optional(text(1024)),
  resource: z.optional(text(2048)),
  company_id: text(64),
  decision: z.enum(['allow', 'deny']),
});
export type OAuthAuthorizeRequest = z.infer<typeof oauthAuthorizeRequest>;

export const oauthAuthorizeResponse = z.object({ redirect_to: z.string() });

/** A connected app: one grant of the user's, as `GET /api/oauth/grants` lists it. */
export const oauthGrantRow = z.object({
  id: z.string(),
  /** `name` is null when the client named none, or its registration is gone. */
  client: z.object({ id: z.string(), name: z.nullable(z.string()) }),
  company_id: z.string(),
  /** null when the Company is gone. */
  company_name: z.nullable(z.string()),
  scopes: z.array(z.string()),
  created_at: z.string(),
  last_used_at: z.nullable(z.string()),
});
export type OAuthGrantRow = z.infer<typeof oauthGrantRow>;

export const oauthGrantListResponse = z.object({ grants: z.array(oauthGrantRow) });
export type OAuthGrantListResponse = z.infer<typeof oauthGrantListResponse>;
