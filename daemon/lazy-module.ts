import { ErrorCode } from '../shared/errors.js';
import { unavailable } from './domain-error.js';

/**
 * A library loaded on its first use, not at start: the wallet, passkey, MCP, SMTP and TOTP
 * libraries cost the daemon ~1 s of CPU and ~60 MiB at every start (docs/performance.md), while
 * most starts serve none of their routes. The promise is kept, so the import runs once; a failed
 * import (a broken install) is forgotten so that the next request tries again, and the caller gets
 * a 503 `feature_unavailable` naming the library instead of a 500 or a crashed daemon.
 */
export function loadLazily<M>(what: string, load: () => Promise<M>): () => Promise<M> {
  let loading: Promise<M> | undefined;
  return () => {
    loading ??= load().catch((err: unknown) => {
      loading = undefined;
      const why = err instanceof Error ? err.message : String(err);
      throw unavailable(`${what} could not be loaded on this server (${why}).`, ErrorCode.featureUnavailable);
    });
    return loading;
  };
}
