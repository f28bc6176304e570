import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';

/** Where the data is: the daemon's own choice (daemon-options.ts), as `svc admin export|import` resolve it. */
export type TransferStore = { kind: 'data-folder'; dir: string } | { kind: 'postgres'; url: string };

/** --database, else --data, else SVC_DATABASE_URL, else the data folder (SVC_DATA_DIR, the profile's, the default). */
export function transferStoreOf(ctx: CliContext, flags: { data?: string; database?: string }): TransferStore {
  if (flags.data && flags.database) throw new UsageError('pass --data or --database, not both');
  const url = flags.database ?? (flags.data ? undefined : ctx.env.SVC_DATABASE_URL);
  if (url) return { kind: 'postgres', url };
  return { kind: 'data-folder', dir: ctx.dataDir(flags.data) };
}

export interface TransferSummary {
  records: number;
  companies: number;
  events: number;
  store: string;
  file: string;
}
