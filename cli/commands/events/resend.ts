import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import type { EventRow } from '../../../shared/runtime-records.js';
import { deliverEvent } from '../../forward/deliver.js';
import { FailedError } from '../../errors.js';
import { checkTarget, forwardSetUp, printDelivery } from './forward.js';
import { withCompany } from './shared.js';
import { defaultSleep } from './tail.js';

/** `svc events resend <event id> --to URL`: one event again, signed with that forward's secret; exit 1 if the app refuses it. */
export async function runResend(
  opts: { id: string; to: string; company?: string; maxAttempts?: number; sleep?: (ms: number) => Promise<void> },
  ctx: CliContext,
): Promise<void> {
  const to = checkTarget(opts.to);
  const { api, fw } = await forwardSetUp(ctx, to, opts.company);
  const { event } = await api.get<{ event: EventRow }>(`/api/events/${encodeURIComponent(opts.id)}`);
  const r = await deliverEvent(event, {
    to,
    secret: fw.state.secret,
    now: ctx.now,
    sleep: opts.sleep ?? defaultSleep,
    maxAttempts: opts.maxAttempts ?? 6,
  });
  printDelivery(ctx, event, r);
  if (!r.ok) throw new FailedError(`${to} did not take ${event.id} (${r.status ?? r.error})`);
}

export function resendCommand(makeCtx: ContextFactory): Command {
  const cmd = withCompany(new Command('resend').description('POST one event to your app again, signed'))
    .argument('<event-id>')
    .requiredOption('--to <url>', 'where to POST it');
  return action(cmd, makeCtx, (ctx, flags, id: string) => runResend({ id, to: flags.to, company: flags.company }, ctx));
}
