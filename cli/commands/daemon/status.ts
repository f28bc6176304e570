import { Command } from '../../command-spec.js';
import { processIsAlive, readLock } from '../../../daemon/lock.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { NotFoundError } from '../../errors.js';
import { healthy } from './start.js';
import { readClockOffset } from '../../../shared/clock-offset.js';
import { formatOffset } from '../../../shared/durations.js';

/** `svc daemon status`: exit 0 when a daemon holds the data folder and answers /healthz, else 1. */
export async function runStatus(opts: { data?: string }, ctx: CliContext): Promise<void> {
  const dir = ctx.dataDir(opts.data);
  const lock = readLock(dir);
  const alive = Boolean(lock && processIsAlive(lock.pid));
  const answering = alive && lock?.url ? await healthy(lock.url) : false;
  const status = {
    running: alive,
    healthy: answering,
    pid: alive ? lock!.pid : null,
    url: alive ? lock!.url : null,
    data_dir: dir,
    version: alive ? lock!.version : null,
  };
  // `svc dev clock`: how far the folder's clock was moved ahead; absent at real time.
  const offset = readClockOffset(dir);
  if (ctx.json) ctx.printJson(offset ? { ...status, clock_offset_ms: offset } : status);
  if (!alive) {
    if (ctx.json) throw new NotFoundError('not running');
    throw new NotFoundError(`no svc daemon is running on ${dir}`, "start one with 'svc daemon start'");
  }
  if (ctx.json) return;
  ctx.out(`running (pid ${lock!.pid}) at ${lock!.url ?? '(starting)'}${answering ? '' : ' — not answering /healthz'}`);
  ctx.out(`data folder: ${dir}`);
  ctx.out(`started: ${lock!.started_at}, version ${lock!.version}`);
  if (offset) ctx.out(`clock: ${formatOffset(offset)} ahead of real time ('svc dev clock status')`);
}

export function statusCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('status')
    .description('is the local daemon running?')
    .option('--data <dir>', 'data folder of the daemon');
  return action(cmd, makeCtx, (ctx, flags) => runStatus({ data: flags.data }, ctx));
}
