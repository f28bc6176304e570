import type { Deps } from '../deps.js';
import type { RuntimeHost } from '../gateway/seam.js';

/**
 * The Company runtimes. Until the runtime lands (agents, sessions, quests, events), a Company's
 * runtime serves no routes: the gateway's hand-off reaches it and the request ends in the JSON 404.
 */
export function createRuntimeHost(_deps: Pick<Deps, 'config' | 'clock' | 'ids' | 'log'>): RuntimeHost {
  return {
    open: async () => ({ handle: async () => {} }),
    close: async () => {},
  };
}
