import { redactDatabaseUrl } from '../store/postgres/connect.js';

/** Where svc keeps its data: a data folder (the default) or a team-mode database. */
export type Store = { kind: 'data-folder'; dir: string } | { kind: 'postgres'; url: string };

/** What an export or an import moved, for the command's answer. */
export interface TransferSummary {
  records: number;
  companies: number;
  events: number;
  /** The store, as it may be shown (a database URL without its password). */
  store: string;
  file: string;
}

export const describe = (store: Store): string =>
  store.kind === 'data-folder' ? `data folder ${store.dir}` : `database ${redactDatabaseUrl(store.url)}`;

export const daemonRunningMessage = (dir: string, pid: number, what: 'export' | 'import'): string =>
  `a daemon (pid ${pid}) is running on the data folder ${dir}: stop it first ('svc daemon stop --data ${dir}'), then ${what} again`;
