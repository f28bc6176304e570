import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Command, Option } from '../../command-spec.js';
import { DataDirLocked, processIsAlive, readLock } from '../../../daemon/lock.js';
import { dataFiles } from '../../../shared/paths.js';
import { WITHHELD_INVITE } from '../../../shared/wire.js';
import { operatorApi } from '../../operator.js';
import { CLI_MAIN } from '../../self.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { FailedError, UsageError } from '../../errors.js';

export interface StartOptions {
  foreground: boolean;
  port?: number;
  host?: string;
  data?: string;
  defaultTier?: string;
  /** The longest lifetime a secret key may ask for (`90d`; else $SVC_MAX_KEY_LIFETIME). */
  maxKeyLifetime?: string;
  /** The address users and OAuth clients reach the daemon at, behind a proxy (else $SVC_PUBLIC_URL). */
  publicUrl?: string;
  /** SMTP URL for real mail (else $SVC_SMTP_URL). */
  smtp?: string;
  /** Team mode's PostgreSQL URL (else $SVC_DATABASE_URL; docs/deploy.md). */
  database?: string;
  /** Host names to answer besides loopback's (DNS-rebinding defence); comma-separated on the command line. */
  allowedHosts?: string;
  /** The role a session's transcript is handed to when it crosses its context budget (else $SVC_COMPACTION_ROLE). */
  compactionRole?: string;
  /** `svc dev clock` may move the clock although --host is not loopback (never in team mode). */
  movableClock?: boolean;
  /** Internal (the background start passes it to its child): the banner carries no invite code. */
  withholdInvite?: boolean;
  /** How long a background start waits for /healthz. */
  timeoutMs: number;
}

/** `svc daemon start`: in the foreground (what `npm start` runs), or detached until it answers /healthz. */
export async function runStart(opts: StartOptions, ctx: CliContext): Promise<void> {
  if (opts.foreground) {
    const { runDaemon } = await import('../../../daemon/main.js');
    await runDaemon(
      {
        port: opts.port,
        host: opts.host,
        data: opts.data,
        defaultTier: opts.defaultTier,
        maxKeyLifetime: opts.maxKeyLifetime,
        publicUrl: opts.publicUrl,
        smtp: opts.smtp,
        database: opts.database,
        withholdInvite: opts.withholdInvite,
        compactionRole: opts.compactionRole,
        movableClock: opts.movableClock,
        allowedHosts:
          opts.allowedHosts === undefined
            ? undefined
            : opts.allowedHosts
                .split(',')
                .map((h) => h.trim())
                .filter(Boolean),
      },
      ctx.io.stdout,
      ctx.json,
    );
    return;
  }
  const dir = ctx.dataDir(opts.data);
  const holder = readLock(dir);
  if (holder && processIsAlive(holder.pid)) throw new FailedError(new DataDirLocked(holder, dir).message);

  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const logFile = join(dir, dataFiles.log);
  const log = openSync(logFile, 'a', 0o600);
  const offset = statSync(logFile).size;
  const args = [CLI_MAIN, 'daemon', 'start', '--foreground', '--withhold-invite', '--data', dir];
  if (opts.port !== undefined) args.push('--port', String(opts.port));
  if (opts.host) args.push('--host', opts.host);
  if (opts.defaultTier) args.push('--default-tier', opts.defaultTier);
  if (opts.maxKeyLifetime) args.push('--max-key-lifetime', opts.maxKeyLifetime);
  if (opts.publicUrl) args.push('--public-url', opts.publicUrl);
  if (opts.allowedHosts !== undefined) args.push('--allowed-hosts', opts.allowedHosts);
  if (opts.compactionRole !== undefined) args.push('--compaction-role', opts.compactionRole);
  if (opts.movableClock) args.push('--movable-clock');
  // URLs that may carry a password go to the child in its environment, not its argv (`ps` shows argv).
  const env = {
    ...ctx.env,
    ...(opts.smtp ? { SVC_SMTP_URL: opts.smtp } : {}),
    ...(opts.database ? { SVC_DATABASE_URL: opts.database } : {}),
  };
  const child = spawn(process.execPath, args, { detached: true, stdio: ['ignore', log, log], env });
  closeSync(log);
  let exited: number | null = null;
  child.on('exit', (code) => (exited = code ?? 1));
  child.unref();

  const deadline = ctx.now() + opts.timeoutMs;
  while (ctx.now() < deadline) {
    if (exited !== null) throw new FailedError(`the daemon exited during start-up:\n${tail(logFile, offset)}`);
    const lock = readLock(dir);
    const banner = tail(logFile, offset)
      .split('\n')
      .filter((l) => /^(listening on|data folder|clock|invite code|next|\s+then)/.test(l));
    // The daemon answers /healthz before it has minted the banner's invite (a disk write): wait for
    // its last line too, so the user always sees the invite code and the next step.
    const bannerDone = banner.some((l) => l.startsWith('next'));
    if (lock && lock.pid === child.pid && lock.url && bannerDone && (await healthy(lock.url))) {
      // The log keeps no live invite (anyone who can read daemon.log could sign up with it): mint one now
      // and show it only to whoever started the daemon.
      const invite = await mintInvite(ctx, dir);
      if (ctx.json)
        return ctx.printJson({
          ok: true,
          pid: child.pid,
          url: lock.url,
          data_dir: dir,
          log: logFile,
          invite_code: invite,
        });
      ctx.out(`svc daemon started (pid ${child.pid})`);
      banner.forEach((l) => {
        ctx.out(l.replace(WITHHELD_INVITE, invite));
      });
      ctx.out(`log: ${logFile}`);
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new FailedError(`the daemon did not answer within ${opts.timeoutMs / 1000} s; see ${logFile}`);
}

async function mintInvite(ctx: CliContext, dir: string): Promise<string> {
  const { code } = await operatorApi(ctx, dir).post<{ code: string }>('/api/dev/invites', {});
  return code;
}

export async function healthy(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1000) });
    return res.ok;
  } catch {
    return false;
  }
}

function tail(file: string, offset: number): string {
  return readFileSync(file).subarray(offset).toString('utf8').trim();
}

export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new UsageError(`invalid port '${value}': use 0-65535`);
  return port;
}

export function startCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('start')
    .description('start the local daemon (in the background unless --foreground)')
    .option('--foreground', 'run in this terminal; Ctrl-C stops it', false)
    .option('--port <n>', 'port to listen on (0 picks a free one)', parsePort)
    .option('--host <host>', 'address to bind (default 127.0.0.1)')
    .option('--data <dir>', 'data folder (default $SVC_DATA_DIR, $XDG_DATA_HOME/svc, ~/.local/share/svc)')
    .option('--default-tier <tier>', 'tier of new users (default trial)')
    .option(
      '--public-url <url>',
      'the address users and OAuth clients reach this daemon at, e.g. https://svc.example.com behind a proxy: links in e-mails and OAuth metadata use it (default $SVC_PUBLIC_URL)',
    )
    .option(
      '--smtp <url>',
      'send mail over SMTP, e.g. smtp://user:pass@mail.example.com:587 (default $SVC_SMTP_URL; unset: mail is captured)',
    )
    .option(
      '--database <url>',
      'team mode: store everything in this PostgreSQL database, e.g. postgres://svc:pass@db/svc (default $SVC_DATABASE_URL; docs/deploy.md)',
    )
    .option(
      '--allowed-hosts <names>',
      'Host names to answer besides localhost, 127.0.0.1, [::1] (comma-separated; default $SVC_ALLOWED_HOSTS)',
    )
    .option(
      '--max-key-lifetime <duration>',
      'the longest lifetime a secret key may ask for, e.g. 90d; keys asking for none get this one (default $SVC_MAX_KEY_LIFETIME; unset: no cap)',
    )
    .option(
      '--compaction-role <role>',
      'hand a session that crosses its context budget to this role as a summarising quest (default $SVC_COMPACTION_ROLE; unset: off)',
    )
    .option(
      '--movable-clock',
      "let 'svc dev clock' move the clock although --host is not loopback (never in team mode)",
    )
    .addOption(new Option('--withhold-invite').hideHelp());
  return action(cmd, makeCtx, (ctx, flags) =>
    runStart(
      {
        foreground: Boolean(flags.foreground),
        port: flags.port,
        host: flags.host,
        data: flags.data,
        defaultTier: flags.defaultTier,
        maxKeyLifetime: flags.maxKeyLifetime,
        publicUrl: flags.publicUrl,
        smtp: flags.smtp,
        database: flags.database,
        withholdInvite: Boolean(flags.withholdInvite),
        allowedHosts: flags.allowedHosts,
        compactionRole: flags.compactionRole,
        movableClock: Boolean(flags.movableClock),
        timeoutMs: 15000,
      },
      ctx,
    ),
  );
}
