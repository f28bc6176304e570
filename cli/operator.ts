import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { processIsAlive, readLock } from '../shared/lock-file.js';
import { dataFiles } from '../shared/paths.js';
import { createApiClient, type ApiClient } from './api-client.js';
import type { CliContext } from './context.js';
import { AuthRequiredError, FailedError } from './errors.js';

/**
 * An API client for the operator surface of a local daemon: the token comes from the daemon's
 * data folder (or SVC_OPERATOR_TOKEN), and without --url / SVC_URL the address from its lock file.
 */
export function operatorApi(ctx: CliContext, dataFlag?: string): ApiClient {
  const dir = ctx.dataDir(dataFlag);
  const token = ctx.env.SVC_OPERATOR_TOKEN ?? readToken(dir);
  const lock = readLock(dir);
  const live = lock?.url && processIsAlive(lock.pid) ? lock.url : null;
  // The token of one folder sent to another daemon would only be refused: say which folder is which.
  if (ctx.urlGiven && live && live !== ctx.url()) {
    throw new FailedError(
      `the daemon at ${ctx.url()} does not use the data folder ${dir} (that folder's daemon is at ${live})`,
      "pass --data <the folder the daemon was started with>, or name it once: 'svc profile add <name> --data <dir> --use'",
    );
  }
  const url = !ctx.urlGiven && live ? live : ctx.url();
  return createApiClient(url, async () => token);
}

function readToken(dir: string): string {
  try {
    return readFileSync(join(dir, dataFiles.operatorToken), 'utf8').trim();
  } catch {
    throw new AuthRequiredError(
      `no operator token in ${dir}`,
      "the operator commands work against a local daemon: pass --data DIR (its data folder), name it once with 'svc profile add <name> --data DIR --use', or set SVC_OPERATOR_TOKEN",
    );
  }
}
