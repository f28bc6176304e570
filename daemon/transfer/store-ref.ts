import { redactDatabaseUrl } from '../store/postgres/connect.js';
import type { TransferStore } from '../../shared/transfer-types.js';

/** Where svc keeps its data: a data folder (the default) or a team-mode database. */
export type Store = TransferStore;
export type { TransferSummary } from '../../shared/transfer-types.js';

export const describe = (store: Store): string =>
  store.kind === 'data-folder' ? `data folder ${store.dir}` : `database ${redactDatabaseUrl(store.url)}`;

export const daemonRunningMessage = (dir: string, pid: number, what: 'export' | 'import'): string =>
  `a daemon (pid ${pid}) is running on the data folder ${dir}: stop it first ('svc daemon stop --data ${dir}'), then ${what} again`;
