import { Command } from '../../command-spec.js';
import type { EventRow, Firing, TraceNode } from '../../../shared/runtime-records.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { runtimeApi, withCompany } from './shared.js';

/** A call's trace (GET /api/audit/{id}/trace): its audit entry, and the events it set off. */
interface CallTrace {
  call: {
    id: string;
    at: string;
    action: string;
    target: string | null;
    outcome: string;
    reason: string | null;
    actor: { type: string; user_id: string | null; key_id: string | null; client_id: string | null };
    details: { status?: number; traceparent?: string; traceparent_ignored?: string };
  };
  children: TraceNode[];
  event_count?: number;
}

/**
 * `svc events trace <id>`: the causation tree — what the event fired and what that caused. An
 * audit entry's id (`aud_…`, from `svc audit list`) starts the tree at that call: who made it
 * with which key or OAuth client, how it ended (a refusal with its reason), and the events it set off.
 */
export async function runTrace(eventId: string, opts: { company?: string }, ctx: CliContext): Promise<void> {
  if (eventId.startsWith('aud_')) return runCallTrace(eventId, opts, ctx);
  const api = await runtimeApi(ctx, opts.company);
  const tree = await api.get<TraceNode & { truncated?: boolean; path?: EventRow[] }>('/api/events/trace', {
    event_id: eventId,
  });
  if (ctx.json) return ctx.printJson(tree);
  // The call that set the chain off, when one did: who, with which credential.
  const origin = (tree.path?.[0] ?? tree.event).origin;
  if (origin) ctx.out(`called by: ${describeCall(origin.action, origin.target, origin.actor, origin.traceparent)}`);
  // The way up to the root cause first, nearest cause last, so the tree reads on from it.
  for (const [i, e] of (tree.path ?? []).entries())
    ctx.out(`${'  '.repeat(i)}caused by: ${e.type}  ${e.id}  [${e.source ?? '?'}]`);
  for (const line of renderTree(tree)) ctx.out(line);
  if (tree.truncated) ctx.err('note: the tree was cut at its size limit');
}

async function runCallTrace(id: string, opts: { company?: string }, ctx: CliContext): Promise<void> {
  const api = await runtimeApi(ctx, opts.company);
  const trace = await api.get<CallTrace>(`/api/audit/${encodeURIComponent(id)}/trace`);
  if (ctx.json) return ctx.printJson(trace);
  const c = trace.call;
  const ended =
    c.outcome === 'refused'
      ? `REFUSED ${c.reason ?? ''}${c.details.status ? ` (${c.details.status})` : ''}`
      : `ok${c.details.status ? ` (${c.details.status})` : ''}`;
  ctx.out(`${describeCall(c.action, c.target, c.actor, c.details.traceparent ?? null)}  ${c.id}  ${c.at}  [${ended}]`);
  if (c.details.traceparent_ignored)
    ctx.out(`   (a traceparent was sent and ignored: ${c.details.traceparent_ignored})`);
  trace.children.forEach((child, i) => {
    for (const line of renderTree(child, '', i === trace.children.length - 1, false)) ctx.out(line);
  });
  if (trace.event_count && trace.event_count > trace.children.length)
    ctx.err(`note: the call set off ${trace.event_count} events; the trace shows the first ${trace.children.length}`);
}

/** `mcp.tools_call quests.create by key key_… (user usr_…)`, with the caller's trace id when it sent one. */
function describeCall(
  action: string,
  target: string | null,
  actor: { type: string; user_id: string | null; key_id: string | null; client_id: string | null },
  traceparent: string | null,
): string {
  const who =
    actor.type === 'oauth'
      ? `OAuth client ${actor.client_id}`
      : actor.type === 'key'
        ? `key ${actor.key_id ?? '(unknown)'}`
        : actor.type;
  const user = actor.user_id ? ` (user ${actor.user_id})` : '';
  return `${action} ${target ?? ''} by ${who}${user}${traceparent ? `  traceparent ${traceparent}` : ''}`;
}

/** Box-drawing lines: each event, then its firings and its child events, indented under it. */
export function renderTree(node: TraceNode, prefix = '', last = true, root = true): string[] {
  const e = node.event;
  const head = `${e.type}  ${e.id}  ${e.created_at}${e.source ? `  [${e.source}]` : ''}`;
  const lines = [root ? head : `${prefix}${last ? '└─ ' : '├─ '}${head}`];
  const inner = root ? '' : prefix + (last ? '   ' : '│  ');
  const notFired = (node.not_fired ?? []).map((n) => ({ notFired: n }));
  const items = [...node.fired.map((f) => ({ fired: f })), ...notFired, ...node.children.map((c) => ({ child: c }))];
  items.forEach((item, i) => {
    const isLast = i === items.length - 1;
    if ('fired' in item) {
      const f = item.fired;
      const status = f.skipped ? 'SKIPPED' : f.ok ? 'ok' : 'FAIL';
      lines.push(
        `${inner}${isLast ? '└─ ' : '├─ '}fired ${f.tool}${attemptOf(f)} [${status}]${f.error ? `  ${f.error}` : ''}${retryOf(f)}  (${f.configured_event_id})`,
      );
    } else if ('notFired' in item) {
      lines.push(
        `${inner}${isLast ? '└─ ' : '├─ '}not fired (${item.notFired.reason})  (${item.notFired.configured_event_id})`,
      );
    } else {
      lines.push(...renderTree(item.child, inner, isLast, false));
    }
  });
  return lines;
}

/** A call of a rule with retries says which attempt it was … */
const attemptOf = (f: Firing) => (f.attempt ? ` attempt ${f.attempt}` : '');
/** … and what follows it: the next attempt's time, or how the call ended. */
const retryOf = (f: Firing) =>
  f.next_attempt_at ? `  → next attempt ${f.next_attempt_at}` : f.outcome && f.attempt ? `  → ${f.outcome}` : '';

export function traceCommand(makeCtx: ContextFactory): Command {
  const cmd = withCompany(
    new Command('trace')
      .description('show what an event fired and everything that caused, as a tree')
      .argument('<id>', "an event id (evt_…), or a call's audit entry id (aud_…) to start at that call"),
  );
  return action(cmd, makeCtx, (ctx, flags, id: string) => runTrace(id, flags, ctx));
}
