import { useSyncExternalStore } from 'react';

/**
 * The console's login, held in this page's memory only: never in localStorage, sessionStorage,
 * a cookie or a URL, so nothing else on the machine (or a later visitor of the browser) can read
 * it back. Reloading the page logs out; that is the price, and the page ends its session on the
 * daemon as it goes (api.ts endSessionWithPage), so no live session is left behind.
 */
export interface SessionState {
  token: string | null;
  /** The Company the runtime pages (events) talk to, sent as X-Company. */
  companyId: string | null;
  /** The operator token of a local daemon, typed in on the mail page (never served to the page). */
  operatorToken: string | null;
}

let state: SessionState = { token: null, companyId: null, operatorToken: null };
const listeners = new Set<() => void>();

export const getSession = () => state;

export function updateSession(patch: Partial<SessionState>): void {
  state = { ...state, ...patch };
  for (const l of listeners) l();
}

export const logOutLocally = () => updateSession({ token: null, companyId: null });

export function useSession(): SessionState {
  return useSyncExternalStore((l) => {
    listeners.add(l);
    return () => listeners.delete(l);
  }, getSession);
}
