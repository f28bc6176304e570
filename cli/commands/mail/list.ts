import { Command } from '../../command-spec.js';
import type { MailListResponse, MailMessage } from '../../../shared/wire.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { operatorApi } from '../../operator.js';
import { runLiveMail } from './follow-live.js';

export interface MailOptions {
  to?: string;
  follow: boolean;
  data?: string;
  /** Poll interval of --follow, in ms. */
  intervalMs: number;
  signal?: AbortSignal;
  /** Injected in tests: how to wait between polls of the live view. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** `svc mail`: the e-mail a local daemon captured, oldest first; `--follow` waits for more. */
export async function runMail(opts: MailOptions, ctx: CliContext): Promise<void> {
  const api = operatorApi(ctx, opts.data);
  const fetchSince = async (sinceId?: string) =>
    (await api.get<MailListResponse>('/api/dev/mail', { query: { to: opts.to, since_id: sinceId } })).mail;

  let mail = await fetchSince();
  if (!opts.follow) {
    if (ctx.json) return ctx.printList(mail);
    if (mail.length === 0) ctx.err(opts.to ? `no mail to ${opts.to} yet` : 'no mail yet');
    mail.forEach((m) => {
      printMessage(ctx, m);
    });
    return;
  }
  // On an interactive terminal (without --json) a live view; Ink is loaded only on that path.
  if (ctx.interactive && !ctx.json) return runLiveMail(fetchSince, mail, { ...opts, sleep: opts.sleep ?? sleep }, ctx);
  let last: string | undefined;
  for (;;) {
    for (const m of mail) {
      if (ctx.json) ctx.out(JSON.stringify(m));
      else printMessage(ctx, m);
      last = m.id;
    }
    if (opts.signal?.aborted) return;
    await sleep(opts.intervalMs, opts.signal);
    if (opts.signal?.aborted) return;
    mail = await fetchSince(last);
  }
}

function printMessage(ctx: CliContext, m: MailMessage): void {
  const dim = (s: string) => (ctx.color ? `\x1b[2m${s}\x1b[22m` : s);
  const bold = (s: string) => (ctx.color ? `\x1b[1m${s}\x1b[22m` : s);
  ctx.out(`${dim(m.created_at)}  to ${m.to}  ${bold(m.subject)}`);
  if (m.code) ctx.out(`  code: ${bold(m.code)}`);
  if (m.link) ctx.out(`  link: ${m.link}`);
  for (const line of m.text.split('\n')) ctx.out(dim(`  | ${line}`));
  ctx.out();
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

export function mailCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('mail')
    .description('show the e-mail a local daemon captured (codes and magic links)')
    .option('--to <email>', 'only messages to this address')
    .option('-f, --follow', 'keep waiting for new messages', false)
    .option('--data <dir>', 'data folder of the local daemon (for its operator token)');
  return action(cmd, makeCtx, (ctx, flags) =>
    runMail({ to: flags.to, follow: Boolean(flags.follow), data: flags.data, intervalMs: 1000 }, ctx),
  );
}
