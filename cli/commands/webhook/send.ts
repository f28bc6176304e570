import { randomBytes } from 'node:crypto';
import { Command } from '../../command-spec.js';
import { channelNameProblem } from '../../../shared/channel-name.js';
import { signDelivery } from '../../../shared/webhook-signature.js';
import { action, type ContextFactory } from '../../command.js';
import { companyHeaders } from '../../company.js';
import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';

export interface WebhookSendOptions {
  channel: string;
  body: string;
  /** Read the channel secret from stdin (else $SVC_WEBHOOK_SECRET). */
  secretStdin: boolean;
  delivery?: string;
  company?: string;
  /** Print the signed request instead of sending it (for curl or another sender). */
  dryRun: boolean;
}

/** What the daemon answers a delivery with (docs/emitters.md). */
export interface WebhookAnswer {
  ok: boolean;
  delivery_id: string;
  duplicate: boolean;
  event?: { id: string; type: string };
  fired?: Array<{ configured_event_id: string; tool: string; ok: boolean }>;
  routed?: Array<{ session_id: string; decision: 'turn' | 'append' }>;
}

/**
 * `svc webhook send <channel> --body <json>`: signs a test delivery with the channel secret, as an
 * outside sender would, and posts it to the daemon's `POST /api/webhooks/{channel}`.
 */
export async function runWebhookSend(opts: WebhookSendOptions, ctx: CliContext): Promise<void> {
  const nameProblem = channelNameProblem(opts.channel);
  if (nameProblem) throw new UsageError(`bad channel '${opts.channel}': ${nameProblem}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(opts.body);
  } catch {
    throw new UsageError('--body must be JSON', `e.g. --body '{"text":"@bob the build is red"}'`);
  }
  const secret = opts.secretStdin ? (await readAll(ctx.io.stdin)).trim() : (ctx.env.SVC_WEBHOOK_SECRET ?? '').trim();
  if (!secret) throw new UsageError('no channel secret', 'pipe it in with --secret-stdin, or set SVC_WEBHOOK_SECRET');
  // The API client sends JSON.stringify(parsed): sign exactly those bytes.
  const raw = JSON.stringify(parsed);
  const deliveryId = opts.delivery ?? `cli_${randomBytes(8).toString('hex')}`;
  // v2 signs the delivery id with the body, so a captured delivery cannot be replayed under a new id.
  const signature = signDelivery({ secret, deliveryId, rawBody: raw, nowMs: ctx.now() });
  const signed = { 'X-Svc-Signature': signature, 'X-Svc-Delivery': deliveryId };
  const path = `/api/webhooks/${opts.channel}`;
  if (opts.dryRun) {
    if (ctx.json) return ctx.printJson({ method: 'POST', path, headers: signed, body: raw });
    ctx.out(`POST ${ctx.url()}${path}`);
    for (const [k, v] of Object.entries(signed)) ctx.out(`${k}: ${v}`);
    ctx.out('Content-Type: application/json');
    ctx.out();
    ctx.out(raw);
    return;
  }
  const headers = { ...(await companyHeaders(ctx, opts.company)), ...signed };
  // No bearer token: the signature is this request's credential, as for any outside sender.
  const answer = await ctx.api().post<WebhookAnswer>(path, parsed, { headers, token: null });
  if (ctx.json) return ctx.printJson(answer);
  if (answer.duplicate) return ctx.out(`delivery ${answer.delivery_id} was already received: nothing emitted again`);
  ctx.out(
    `delivered ${answer.delivery_id} as ${answer.event?.type ?? `webhook:${opts.channel}`} (event ${answer.event?.id ?? '?'})`,
  );
  const fired = answer.fired ?? [];
  ctx.out(
    fired.length === 0
      ? '  no configured event matched'
      : `  fired ${fired.length} tool call(s): ${fired.map((f) => `${f.tool}${f.ok ? '' : ' (failed)'}`).join(', ')}`,
  );
  for (const r of answer.routed ?? [])
    ctx.out(`  session ${r.session_id}: ${r.decision === 'turn' ? 'started a turn' : 'appended to the transcript'}`);
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += chunk.toString();
  return text;
}

export function webhookSendCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('send')
    .description('sign a test delivery with the channel secret and send it to the daemon')
    .argument('<channel>', 'the channel name (the event is webhook:<channel>)')
    .requiredOption('--body <json>', 'the JSON body to deliver')
    .option('--secret-stdin', 'read the channel secret from stdin (else $SVC_WEBHOOK_SECRET)', false)
    .option('--delivery <id>', 'the X-Svc-Delivery id (default: a random one); resend the same id to test dedup')
    .option('--company <name>', 'the Company (default: the current one)')
    .option('--dry-run', 'print the signed request instead of sending it', false);
  return action(cmd, makeCtx, (ctx, flags, channel: string) =>
    runWebhookSend(
      {
        channel,
        body: flags.body,
        secretStdin: Boolean(flags.secretStdin),
        delivery: flags.delivery,
        company: flags.company,
        dryRun: Boolean(flags.dryRun),
      },
      ctx,
    ),
  );
}

export function webhookCommand(makeCtx: ContextFactory): Command {
  return new Command('webhook')
    .description('send a signed test delivery to a webhook channel')
    .addCommand(webhookSendCommand(makeCtx));
}
