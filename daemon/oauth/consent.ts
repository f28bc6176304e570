import type Provider from 'oidc-provider';
import { ErrorCode } from '../../shared/errors.js';
import type { OAuthAuthorizeRequest } from '../../shared/schemas/oauth.js';
import { forbidden, invalid } from '../domain-error.js';
import type { OAuthDeps } from './oauth-deps.js';
import { bindGrant } from './grant-binding.js';
import type { OAuthUrls } from './urls.js';

/** RFC 7636 §4.2: a S256 challenge is the base64url SHA-256 of the verifier, 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/**
 * The user's answer to an authorization request, from the consent page. The page only forwards
 * the request, so everything is checked again here, against the registered client: an unknown
 * client or a redirect URI it did not register is refused with no redirect (the browser is never
 * sent to an address the client did not register), and PKCE must be S256 (OAuth 2.1). An allow
 * makes a grant bound to (user, Company, client, scopes, the MCP resource) and a code for it; the
 * token endpoint (the library) then checks the verifier, the redirect URI and the code's age.
 * Both answers carry `iss` (RFC 9207), so a client talking to several servers can tell who answered.
 */
export async function answerAuthorization(
  deps: OAuthDeps,
  provider: Provider,
  urls: OAuthUrls,
  request: OAuthAuthorizeRequest,
  userId: string,
): Promise<string> {
  const client = await findClient(provider, request.client_id);
  if (!client.redirectUriAllowed(request.redirect_uri))
    throw invalid('That redirect_uri is not one the client registered.', ErrorCode.oauthInvalidRedirectUri);
  const back = new URL(request.redirect_uri);
  const answer = (params: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries({ ...params, state: request.state, iss: urls.issuer }))
      if (value !== undefined) back.searchParams.set(name, value);
    return back.href;
  };
  // A user who says no goes back to the client whatever else is wrong with the request: it is
  // already known to be the client's own redirect URI, and a refusal grants nothing.
  if (request.decision === 'deny') return answer({ error: 'access_denied' });

  if (request.response_type !== 'code' || !client.responseTypeAllowed('code'))
    throw invalid('response_type must be code.', ErrorCode.oauthInvalidRequest);
  if (request.code_challenge_method !== 'S256' || !S256_CHALLENGE.test(request.code_challenge))
    throw invalid(
      'PKCE is required: code_challenge_method S256 and a 43-character code_challenge.',
      ErrorCode.oauthInvalidRequest,
    );
  if (request.resource !== undefined && request.resource !== urls.resource)
    throw invalid(`This server issues tokens only for the resource ${urls.resource}.`, ErrorCode.oauthInvalidTarget);
  const scopes = scopesOf(request.scope, deps.scopes);

  // Any member may connect an app to a Company they belong to; the token is refused once they leave.
  const access = await deps.stores.members.accessOf(request.company_id, userId);
  if (!access?.role) throw forbidden('That Company is not one of yours.', ErrorCode.companyForbidden);
  const { company } = access;

  const grant = new provider.Grant({ accountId: userId, clientId: client.clientId });
  grant.addResourceScope(urls.resource, scopes.join(' '));
  const grantId = await grant.save();
  await bindGrant(deps, { grantId, userId, companyId: company.id, clientId: client.clientId, scopes });
  const code = new provider.AuthorizationCode({
    accountId: userId,
    client,
    grantId,
    gty: 'authorization_code',
    redirectUri: request.redirect_uri,
    codeChallenge: request.code_challenge,
    codeChallengeMethod: 'S256',
    scope: scopes.join(' '),
    resource: urls.resource,
  });
  return answer({ code: await code.save() });
}

/**
 * The client, registered or named by its metadata document's URL. A document that cannot be
 * fetched or is not acceptable is refused like an unknown client, with the library's reason.
 */
async function findClient(provider: Provider, clientId: string) {
  let client: Awaited<ReturnType<Provider['Client']['find']>>;
  try {
    client = await provider.Client.find(clientId);
  } catch (err) {
    const reason = (err as { error_description?: string }).error_description ?? 'it could not be resolved';
    throw invalid(`The client ${clientId} is refused: ${reason}.`, ErrorCode.oauthInvalidClient);
  }
  if (!client) throw invalid(`No client is registered as ${clientId}.`, ErrorCode.oauthInvalidClient);
  return client;
}

/** The scopes the user grants: those asked for (all when none were named), each one the server knows. */
function scopesOf(asked: string | undefined, supported: readonly string[]): string[] {
  const names = (asked ?? '').split(' ').filter(Boolean);
  const unknown = names.filter((s) => !supported.includes(s));
  if (unknown.length) throw invalid(`Unknown scope: ${unknown.join(', ')}.`, ErrorCode.oauthInvalidScope);
  return names.length ? [...new Set(names)] : [...supported];
}
