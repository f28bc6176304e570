import { useSyncExternalStore } from 'react';

/**
 * Hash routes (`#/keys`, `#/pair/BCDF-GHJK`): the daemon serves one page at `/`, and a fragment
 * never reaches the server or a Referer. `/auth/magic` is the one real path (the e-mailed link).
 */
export interface Route {
  page: string;
  arg: string | null;
}

function readRoute(): Route {
  if (location.pathname === '/auth/magic') return { page: 'magic', arg: null };
  const [page = '', ...rest] = location.hash.replace(/^#\/?/, '').split('/');
  return { page: page || 'home', arg: rest.length ? decodeURIComponent(rest.join('/')) : null };
}

let current = readRoute();
const listeners = new Set<() => void>();
window.addEventListener('hashchange', () => {
  current = readRoute();
  for (const l of listeners) l();
});

export function useRoute(): Route {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => current,
  );
}

export function navigate(to: string): void {
  if (location.pathname !== '/') {
    // Leaving /auth/magic: drop its path (and the link token in its query) from the address bar.
    history.replaceState(null, '', '/' + to);
    current = readRoute();
    for (const l of listeners) l();
    return;
  }
  location.hash = to;
}
