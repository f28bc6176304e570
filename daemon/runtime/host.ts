import type { Deps } from '../deps.js';
import type { RuntimeHost } from '../gateway/seam.js';

/**
 * The Company runtimes (issue 6 replaces this file). Until the runtime lands, opening a Company's
 * runtime fails with a clear 501-free answer: the gateway's hand-off reaches no routes.
 */
export function createRuntimeHost(_deps: Pick<Deps, 'config' | 'clock' | 'ids' | 'log'>): RuntimeHost {
  return {
    open: async () => {
      throw new Error('the Company runtime is not built yet');
    },
    close: async () => {},
  };
}
