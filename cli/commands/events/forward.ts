import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { ApiRequestError, UsageError } from '../../errors.js';
import type { EventRow } from '../../../shared/runtime-records.js';
import { deliverEvent, typeMatcher, type DeliveryResult } from '../../forward/deliver.js';
import { openForwardState } from '../../forward/state.js';
import { resolveCompanyId } from '../../company.js';
import { runtimeApi, withCompany } from './shared.js';
import { defaultSleep } from './tail.js';

export interface ForwardOptions {
  to: string;
  type?: string;
  company?: string;
  /** Seconds each long-poll waits on the daemon (0 in tests, with `sleep` between empty polls). */
  waitSeconds: number;
  maxAttempts?: number;
  signal?: AbortSignal;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Tests: told after each delivery. */
  delivered?: (e: EventRow, r: DeliveryResult) => void;
}

/** The target must be an http(s) URL: anything else is a usage error before anything is read. */
export function checkTarget(to: string): string {
  let url: URL;
  try {
    url = new URL(to);
  } catch {
    throw new UsageError(`--to must be a URL such as http://localhost:3000/hooks, not '${to}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--to must be an http or https URL`);
  return url.toString();
}

/** The forward's secret, shown once (the first run for this profile, Company and URL), else a reminder where it is. */
export async function forwardSetUp(ctx: CliContext, to: string, company?: string) {
  const companyId = await resolveCompanyId(ctx, company);
  const api = await runtimeApi(ctx, companyId);
  const fw = openForwardState(ctx.configDir, { profile: ctx.profile.name, company: companyId, to });
  if (fw.fresh) {
    if (ctx.json) ctx.out(JSON.stringify({ secret: fw.state.secret }));
    else ctx.out(`signing secret: ${fw.state.secret}  (shown once: verify X-Svc-Signature with it)`);
  }
  return { api, fw };
}

/**
 * `svc events forward --to URL`: follows the Company's events and POSTs each to the URL, signed,
 * one at a time and in order. The cursor is saved after each event, so a stopped forward resumes
 * with the next one; an event the app still refuses after the retries is reported and passed.
 */
export async function runForward(opts: ForwardOptions, ctx: CliContext): Promise<void> {
  const to = checkTarget(opts.to);
  const { api, fw } = await forwardSetUp(ctx, to, opts.company);
  const matches = typeMatcher(opts.type);
  const sleep = opts.sleep ?? defaultSleep;
  let since: string | undefined = fw.state.cursor ? undefined : new Date(ctx.now()).toISOString();
  if (!ctx.json)
    ctx.err(`forwarding to ${to} ${fw.state.cursor ? `after ${fw.state.cursor}` : `from ${since}`} (Ctrl-C to stop)`);
  let failures = 0;
  while (!opts.signal?.aborted) {
    let page: { events: EventRow[]; cursor?: string | null };
    try {
      const query = { since_id: fw.state.cursor ?? undefined, since, limit: 100, wait: opts.waitSeconds };
      page = await api.get('/api/events', query, opts.signal);
      failures = 0;
    } catch (err) {
      if (opts.signal?.aborted) return;
      if (err instanceof ApiRequestError && err.status < 500 && err.status !== 429) throw err;
      const delay = Math.min(15_000, 1000 * 2 ** failures++);
      ctx.err(`svc: cannot read events (${(err as Error).message}); again in ${Math.round(delay / 1000)}s`);
      await sleep(delay, opts.signal);
      continue;
    }
    for (const e of page.events) {
      if (opts.signal?.aborted) return;
      if (matches(e.type)) {
        const r = await deliverEvent(e, {
          to,
          secret: fw.state.secret,
          now: ctx.now,
          sleep,
          maxAttempts: opts.maxAttempts ?? 6,
          signal: opts.signal,
          retrying: (n, outcome, ms) => ctx.err(`svc: ${e.id} attempt ${n}: ${outcome}; retrying in ${ms / 1000}s`),
        });
        if (opts.signal?.aborted && !r.ok) return;
        printDelivery(ctx, e, r);
        opts.delivered?.(e, r);
      }
      fw.state.cursor = e.id;
      fw.save();
    }
    if (page.events.length === 0 && page.cursor && page.cursor !== fw.state.cursor) {
      fw.state.cursor = page.cursor;
      fw.save();
    }
    since = undefined;
    if (page.events.length === 0 && opts.waitSeconds === 0) await sleep(1000, opts.signal);
  }
}

export function printDelivery(ctx: CliContext, e: EventRow, r: DeliveryResult): void {
  if (ctx.json) {
    ctx.out(
      JSON.stringify({
        event_id: e.id,
        type: e.type,
        ok: r.ok,
        status: r.status,
        attempts: r.attempts,
        ms: r.ms,
        ...(r.error ? { error: r.error } : {}),
      }),
    );
    return;
  }
  const outcome = r.status === null ? `failed (${r.error ?? 'no answer'})` : String(r.status);
  const tries = r.attempts > 1 ? `, ${r.attempts} attempts` : '';
  ctx.out(
    `${new Date(ctx.now()).toISOString()}  ${e.type}  ${e.id}  → ${outcome}  (${r.ms} ms${tries})${r.ok ? '' : '  gave up'}`,
  );
}

export function forwardCommand(makeCtx: ContextFactory): Command {
  const cmd = withCompany(
    new Command('forward').description(
      "POST each of a Company's events to your app, signed (resumes where it stopped)",
    ),
  )
    .requiredOption('--to <url>', 'where to POST each event, e.g. http://localhost:3000/hooks')
    .option('--type <pattern>', 'only events of this type; * stands for any text, e.g. session:*');
  return action(cmd, makeCtx, (ctx, flags) => {
    const controller = new AbortController();
    process.once('SIGINT', () => controller.abort());
    return runForward(
      { to: flags.to, type: flags.type, company: flags.company, waitSeconds: 25, signal: controller.signal },
      ctx,
    );
  });
}
