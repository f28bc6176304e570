import { ApiRequestError } from './errors.js';

/** A refusal the user can fix by typing again: the daemon's 401 with one of these codes. */
export const refusedAs =
  (...codes: string[]) =>
  (err: unknown): boolean =>
    err instanceof ApiRequestError && err.status === 401 && codes.includes(err.code);

/**
 * Inside `svc login` the generic 401 hint ("run 'svc login'") would send the user in a circle:
 * a refused login gets a hint about what to check instead.
 */
export function withLoginHint(err: unknown): unknown {
  if (!(err instanceof ApiRequestError) || err.status !== 401) return err;
  const hint =
    err.code === 'invalid_credentials'
      ? "check the e-mail address and the password; forgot it? 'svc password forgot --email <address>'"
      : 'check the code (a recovery code works too), or wait for the next one of your authenticator app';
  return new ApiRequestError(err.status, err.code, err.message, err.body, hint);
}
