import { nextRuns, parseSchedule, SCHEDULE_PREFIX } from '../../shared/cron.js';
import type { RetryPolicy, SchedulePolicy } from '../../shared/runtime-records.js';

/** A configured event as `GET /api/events?configured=true&scheduled=true` lists it (next_runs is added by the daemon). */
export interface ScheduledRow {
  id: string;
  type: string;
  status: 'active' | 'paused' | 'armed';
  timezone?: string | null;
  next_runs?: string[];
  tool_calls?: Array<{ tool: string }>;
  /** The schedule's policy with the daemon's defaults filled in (absent from older daemons). */
  schedule_policy?: SchedulePolicy | null;
  retry?: RetryPolicy | null;
}

/**
 * The rows of `svc events list --scheduled`: status, pattern, zone, next run and what it does.
 * A paused schedule shows when it would run if enabled; an armed one never runs. Next runs come
 * from the daemon; when an older daemon leaves them out they are computed here the same way.
 */
export function formatScheduledRows(rows: ScheduledRow[], nowMs: number): string[] {
  const scheduled = rows.filter((r) => r.type.startsWith(SCHEDULE_PREFIX));
  if (scheduled.length === 0) return ['no scheduled events'];
  const cells = scheduled.map((r) => {
    const runs = r.next_runs ?? nextRuns(r.type, r.timezone, nowMs, 5);
    const check = parseSchedule(r.type, r.timezone);
    const next = !check.ok
      ? `invalid: ${check.reason}`
      : r.status === 'armed'
        ? 'never (armed)'
        : runs[0]
          ? describeRun(runs[0], nowMs, r.status === 'paused')
          : r.schedule_policy?.end_at && r.schedule_policy.end_at <= new Date(nowMs).toISOString()
            ? `none (ended ${short(r.schedule_policy.end_at)})`
            : 'none';
    return [
      r.id,
      r.status,
      r.type.slice(SCHEDULE_PREFIX.length).trim(),
      r.timezone ?? 'UTC',
      next,
      describePolicy(r.schedule_policy),
      (r.tool_calls ?? []).map((t) => t.tool).join(', ') + (r.retry ? ` (retry ×${r.retry.max_attempts})` : ''),
    ];
  });
  const header = ['ID', 'STATUS', 'SCHEDULE', 'TIMEZONE', 'NEXT RUN', 'POLICY', 'DOES'];
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) =>
    c
      .map((v, i) => (i === c.length - 1 ? v : v.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), ...cells.map(line)];
}

const short = (iso: string) => iso.replace(':00.000Z', 'Z').replace('.000Z', 'Z');

/** `catch-up all ≤5, overlap skip, from … until …`; `-` when the daemon did not say (an older one). */
function describePolicy(p: SchedulePolicy | null | undefined): string {
  if (!p) return '-';
  const catchUp = p.catch_up === 'all' ? `all ≤${p.max_catch_up}` : p.catch_up;
  const parts = [`catch-up ${catchUp}`, `overlap ${p.overlap}`];
  if (p.start_at) parts.push(`from ${short(p.start_at)}`);
  if (p.end_at) parts.push(`until ${short(p.end_at)}`);
  return parts.join(', ');
}

function describeRun(iso: string, nowMs: number, paused: boolean): string {
  const text = `${iso.replace('.000Z', 'Z')} (${relative(Date.parse(iso) - nowMs)})`;
  return paused ? `${text}, if enabled` : text;
}

function relative(ms: number): string {
  const min = Math.max(0, Math.round(ms / 60_000));
  if (min < 1) return 'in <1m';
  if (min < 60) return `in ${min}m`;
  const h = Math.floor(min / 60);
  if (h < 48) return `in ${h}h${min % 60 ? ` ${min % 60}m` : ''}`;
  return `in ${Math.round(h / 24)}d`;
}
