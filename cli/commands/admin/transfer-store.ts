import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';

import type { TransferStore } from '../../../shared/transfer-types.js';

export type { TransferStore };

/** --database, else --data, else SVC_DATABASE_URL, else the data folder (SVC_DATA_DIR, the profile's, the default). */
export function transferStoreOf(ctx: CliContext, flags: { data?: string; database?: string }): TransferStore {
  if (flags.data && flags.database) throw new UsageError('pass --data or --database, not both');
  const url = flags.database ?? (flags.data ? undefined : ctx.env.SVC_DATABASE_URL);
  if (url) return { kind: 'postgres', url };
  return { kind: 'data-folder', dir: ctx.dataDir(flags.data) };
}
