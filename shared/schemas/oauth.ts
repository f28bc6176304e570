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
