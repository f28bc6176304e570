/**
 * How long the authorization server's records live, in seconds. A code is redeemed within a
 * minute (it crossed a browser once already); an access token lives at most an hour, so a lost
 * one is short-lived even before it is revoked; refresh tokens rotate on every use and their
 * grant outlives them only as long as a user would expect an app to stay connected unused.
 */
export const OAUTH_TTL = {
  code: 60,
  accessToken: 3600,
  refreshToken: 30 * 24 * 3600,
  grant: 90 * 24 * 3600,
  /** A pending authorization request, between the authorization endpoint and the consent page. */
  interaction: 600,
  /**
   * A dynamically registered client unused this long is forgotten (SVC_OAUTH_CLIENT_IDLE changes
   * it): registration is open to anyone, so its records must not pile up. As long as a refresh
   * token: a client that still holds a live one is still in use.
   */
  clientIdle: 30 * 24 * 3600,
};
