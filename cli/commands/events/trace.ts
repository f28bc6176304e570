import { Command } from '../../command-spec.js';
import type { EventRow, Firing, TraceNode } from '../../../shared/runtime-records.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { runtimeApi, withCompany } from './shared.js';

/** `svc events trace <event id>`: the causation tree — what the event fired and what that caused. */
export async function runTrace(eventId: string, opts: { company?: string }, ctx: CliContext): Promise<void> {
  const api = await runtimeApi(ctx, opts.company);
  const tree = await api.get<TraceNode & { truncated?: boolean; path?: EventRow[] }>('/api/events/trace', {
    event_id: eventId,
  });
  if (ctx.json) return ctx.printJson(tree);
  // The way up to the root cause first, nearest cause last, so the tree reads on from it.
  for (const [i, e] of (tree.path ?? []).entries())
    ctx.out(`${'  '.repeat(i)}caused by: ${e.type}  ${e.id}  [${e.source ?? '?'}]`);
  for (const line of renderTree(tree)) ctx.out(line);
  if (tree.truncated) ctx.err('note: the tree was cut at its size limit');
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
      .argument('<event id>', 'an event id (evt_…)'),
  );
  return action(cmd, makeCtx, (ctx, flags, id: string) => runTrace(id, flags, ctx));
}
