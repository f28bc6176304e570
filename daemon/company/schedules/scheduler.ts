import type { CronExpression } from 'cron-parser';
import { isoAt, type Clock } from '../../clock.js';
import type { ConfiguredEvent, EventsService } from '../company-services.js';
import type { RetryStore, TickCursor, TickStore, TickUpdate } from '../../store/types.js';
import {
  compileSchedule,
  firstTickAfter,
  isSchedulePattern,
  latestTickAtOrBefore,
  parseSchedule,
} from '../../../shared/cron.js';
import { selectDueTicks, type DuePolicy } from './due-ticks.js';
import { boundsOf, fireClaimed, policyOf, type FireReport } from './fire-claimed.js';
import { createMinuteLoop, realTimer, type SchedulerTimer } from './minute-loop.js';

export type { SchedulerTimer } from './minute-loop.js';

export interface SchedulerOptions {
  clock: Clock;
  events: Pick<EventsService, 'listConfigured' | 'fire'>;
  ticks: TickStore;
  /** A schedule with overlap `skip` skips a tick while a call of its last firing waits for a retry. */
  retries?: Pick<RetryStore, 'countFor'>;
  policy?: Partial<DuePolicy>;
  /** Tests pass a fake one and call `walk()` themselves. */
  timer?: SchedulerTimer;
  /** A walk that failed as a whole (the store could not write); single firings are in the report. */
  onError?: (err: unknown) => void;
}

export interface WalkReport {
  at: string;
  fired: Array<{ id: string; tick: string; event_id: string }>;
  failed: Array<{ id: string; tick: string; error: string }>;
  /** Missed ticks the policy did not fire, per scheduled event. */
  dropped: Array<{ id: string; count: number }>;
  /** Stored patterns that no longer parse (never fire; reported so they can be fixed). */
  invalid: Array<{ id: string; reason: string }>;
  /** Claimed ticks not fired because the schedule's previous firing was still running (overlap `skip`). */
  skipped: FireReport['skipped'];
}

export interface Scheduler {
  walk(): Promise<WalkReport>;
  /** Walks now (catching up on missed ticks), then at every minute boundary until `stop()`. */
  start(): void;
  /** Stops the timer; resolves once a walk in progress has finished. */
  stop(): Promise<void>;
}

export const DEFAULT_POLICY: DuePolicy = { missed: 'latest', maxCatchUp: 100, graceMs: 90_000 };

/**
 * The minute walker of spec §6.4. Each walk lists the `schedule:` configured events, claims the
 * ticks due since each one's cursor in ONE durable TickStore write, and only then fires the ticks
 * it claimed: a tick's identity is (event id, tick time), so a second walk in the same minute, a
 * racing walk, or a restart never fires a tick twice. Paused and armed events never fire, and an
 * event never fires for ticks from before it was created or (re-)enabled.
 */
export function createScheduler(options: SchedulerOptions): Scheduler {
  const { clock, events, ticks } = options;
  const policy: DuePolicy = { ...DEFAULT_POLICY, ...options.policy };
  const timer = options.timer ?? realTimer;
  /** Compiled expressions by `<fields>|<zone>`, and the next tick each event waits for. */
  const compiled = new Map<string, CronExpression>();
  const waiting = new Map<string, { key: string; next: number | null }>();
  /** Each event's checked pattern: validating costs several parses, so it is done once per event. */
  const checks = new Map<
    string,
    { type: string; tz: string | null | undefined; check: ReturnType<typeof parseSchedule> }
  >();
  /** When this process last saw an event inactive: the baseline if it is re-enabled. */
  const inactiveSeen = new Map<string, number>();
  let chain: Promise<unknown> = Promise.resolve();
  /**
   * Whether the store may hold tick cursors: false once a walk with no schedules has forgotten
   * them all. A Company without schedules (most of them) then reads no cursors at its minute walks:
   * on PostgreSQL that is one statement a minute fewer per Company on every daemon. Cursors another
   * daemon leaves for a schedule deleted before this one saw it are forgotten by that daemon's walk
   * (or, if it stopped first, by this one's once the Company has a schedule again: a harmless row till then).
   */
  let cursorsMayExist = true;

  function baselineOf(cfg: ConfiguredEvent, wasInactive: boolean, now: number): number {
    let at = Date.parse(cfg.created_at) || 0;
    // `enabled_at`, when the events store records it, makes re-enabling exact across restarts.
    const enabledAt = Date.parse(String((cfg as { enabled_at?: unknown }).enabled_at ?? ''));
    if (!Number.isNaN(enabledAt)) at = Math.max(at, enabledAt);
    if (wasInactive) at = Math.max(at, inactiveSeen.get(cfg.id) ?? now);
    return at;
  }

  async function walkOnce(): Promise<WalkReport> {
    const now = clock.now();
    const report: WalkReport = { at: isoAt(now), fired: [], failed: [], dropped: [], invalid: [], skipped: [] };
    // Thousands of cursors share a few baselines and tick times: convert each distinct one once per walk.
    const msOf = memoise((iso: string) => Date.parse(iso));
    const isoOf = memoise(isoAt);
    const updates: TickUpdate[] = [];
    const late = new Set<string>();
    /** Schedules with overlap `skip`: their ticks fire one after the other, each checking the last has settled. */
    const serial = new Set<string>();
    const memo = new Map<string, { latest: number | null; next: number | null }>();
    const seen = new Set<string>();
    /** Applied only once the claims are on disk: if the write fails, the next walk retries these ticks. */
    const nextWaits: Array<[string, { key: string; next: number | null }]> = [];
    // Through the store's prefix index: the walk never reads the many configured events of other patterns.
    const scheduled = (await events.listConfigured({ prefix: 'schedule' })).filter((c) => isSchedulePattern(c.type));
    const cursors = scheduled.length > 0 || cursorsMayExist ? await ticks.cursors() : new Map<string, TickCursor>();
    for (const cfg of scheduled) {
      seen.add(cfg.id);
      const cursor = cursors.get(cfg.id);
      if (!(cfg.enabled && cfg.status === 'active')) {
        if (!cursor || cursor.active)
          updates.push({ id: cfg.id, active: false, baseline: cursor?.baseline ?? isoAt(now) });
        inactiveSeen.set(cfg.id, now);
        waiting.delete(cfg.id);
        continue;
      }
      let entry = checks.get(cfg.id);
      if (!entry || entry.type !== cfg.type || entry.tz !== cfg.timezone) {
        checks.set(
          cfg.id,
          (entry = { type: cfg.type, tz: cfg.timezone, check: parseSchedule(cfg.type, cfg.timezone) }),
        );
      }
      const check = entry.check;
      if (!check.ok) {
        report.invalid.push({ id: cfg.id, reason: check.reason });
        continue;
      }
      const key = `${check.schedule.fields}|${check.schedule.timezone}`;
      let baseline = cursor ? msOf(cursor.baseline) : NaN;
      if (!cursor?.active) {
        baseline = baselineOf(cfg, Boolean(cursor), now);
        updates.push({ id: cfg.id, active: true, baseline: isoOf(baseline) });
        inactiveSeen.delete(cfg.id);
      }
      const wait = waiting.get(cfg.id);
      if (wait && wait.key === key && (wait.next === null || now < wait.next)) continue;
      let expr = compiled.get(key);
      if (!expr) {
        if (compiled.size >= 10_000) compiled.clear(); // bound: expressions of long-deleted schedules
        compiled.set(key, (expr = compileSchedule(check.schedule)));
      }
      let m = memo.get(key);
      if (!m) memo.set(key, (m = { latest: latestTickAtOrBefore(expr, now), next: firstTickAfter(expr, now) }));
      // The schedule's own catch-up, and its bounds: no tick before start_at or after end_at.
      const own = cfg.schedule_policy;
      const bounds = boundsOf(own, msOf);
      const from = Math.max(baseline, cursor?.last_tick ? msOf(cursor.last_tick) : -Infinity, bounds.start - 1);
      const latest = bounds.end < now ? latestTickAtOrBefore(expr, bounds.end) : m.latest;
      const due = selectDueTicks(expr, from, now, latest, own ? policyOf(own, policy) : policy);
      if (own?.overlap === 'skip') serial.add(cfg.id);
      for (const t of due.fire) {
        const tick = isoOf(t.at);
        updates.push({ id: cfg.id, active: true, tick });
        if (t.late) late.add(`${cfg.id}@${tick}`);
      }
      if (due.dropped > 0) report.dropped.push({ id: cfg.id, count: due.dropped });
      nextWaits.push([cfg.id, { key, next: m.next }]);
    }
    const gone = [...cursors.keys()].filter((id) => !seen.has(id));
    // Claim before firing: once this write is on disk the ticks are ours, whatever happens next.
    const claimed = await ticks.commit(updates);
    for (const [id, wait] of nextWaits) waiting.set(id, wait);
    await ticks.forget(gone);
    cursorsMayExist = scheduled.length > 0;
    for (const id of gone) waiting.delete(id), checks.delete(id), inactiveSeen.delete(id);
    const patternOf = new Map(scheduled.map((c) => [c.id, c.type]));
    await fireClaimed(claimed, { events, retries: options.retries, serial, late, patternOf, report });
    report.fired.sort((a, b) => (a.tick < b.tick ? -1 : a.tick > b.tick ? 1 : 0));
    return report;
  }

  const walk = (): Promise<WalkReport> => {
    // Walks run one after another: the cursor cache assumes it sees each walk's writes.
    const next = chain.then(walkOnce, walkOnce);
    chain = next.catch(() => undefined);
    return next;
  };

  const minuteLoop = createMinuteLoop({ clock, timer, run: walk, onError: options.onError });

  return {
    walk,
    start: () => minuteLoop.start(),
    async stop() {
      minuteLoop.stop();
      await chain;
    },
  };
}

function memoise<K, V>(fn: (key: K) => V): (key: K) => V {
  const cache = new Map<K, V>();
  return (key) => {
    let value = cache.get(key);
    if (value === undefined) cache.set(key, (value = fn(key)));
    return value;
  };
}
