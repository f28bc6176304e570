import type { Clock } from '../../../clock.js';
import type { Random } from '../../../random.js';
import type { ConfiguredEvent, EventRow, Firing, ToolCall } from '../../../../shared/runtime-records.js';
import type { ConfiguredEventStore, FiringStore, PendingRetry, RetryStore } from '../../../store/runtime-types.js';
import type { SchedulerTimer } from '../../schedules/minute-loop.js';
import { cancelledFiring, settleAttempt, whyCancelled, type CallOutcome } from './attempts.js';

/** How long a claimed attempt may run before another walker takes it as interrupted (a stopped daemon). */
const RETRY_LEASE_MS = 10 * 60_000;
/** The longest the walker sleeps: in team mode another daemon may schedule a retry it must pick up. */
export const RETRY_POLL_MS = 60_000;
/** Retries taken per walk: a backlog after a long stop is worked off over a few walks, not all at once. */
const BATCH = 100;

export interface RetryWalkerDeps {
  clock: Clock;
  random: Random;
  retries: RetryStore;
  firings: Pick<FiringStore, 'add'>;
  configured: Pick<ConfiguredEventStore, 'get'>;
  events: { get(id: string): Promise<EventRow | undefined> };
  runCall(cfg: { id: string }, call: ToolCall, event: EventRow): Promise<CallOutcome>;
  timer: SchedulerTimer;
  onError?(err: unknown): void;
}

export interface RetryWalkReport {
  ran: Array<{ id: string; attempt: number; ok: boolean }>;
  interrupted: string[];
  cancelled: string[];
}

export interface RetryWalker {
  /** Runs every retry due now (each claimed first: at most once, on one daemon). */
  walk(): Promise<RetryWalkReport>;
  /** A dispatch scheduled a retry due at `dueMs`: wake up for it if that is sooner than planned. */
  wake(dueMs: number): void;
  start(): void;
  /** Stops the timer; resolves once a walk in progress (and its attempts) has finished. */
  stop(): Promise<void>;
}

/**
 * The due-retry walker of one Company. Each due record is claimed (pending → running, durable)
 * before its attempt runs, and settled with the attempt's firing in one write: the next attempt
 * scheduled, or the record dropped with the outcome. An attempt a stop cut short is never run again
 * (at most once per attempt): found still running past its lease, it ends as `interrupted`.
 */
export function createRetryWalker(deps: RetryWalkerDeps): RetryWalker {
  const { clock, retries } = deps;
  const runningHere = new Set<string>();
  let chain: Promise<unknown> = Promise.resolve();
  let handle: unknown = null;
  let plannedAt: number | null = null;
  let running = false;
  /**
   * The store held no retry at all at the last look, and none was scheduled here since: an idle
   * Company then polls with `due` alone, without the next-due read that would answer nothing again
   * (on PostgreSQL one statement a minute fewer per Company on every daemon). A retry scheduled here
   * wakes the walker; one scheduled by another daemon is found by the poll once due (that daemon
   * runs it itself, unless it stopped).
   */
  let nonePending = false;
  /** How many retries the last walk found due. */
  let lastFound = 0;
  /**
   * The earliest due time `wake` was given since the last re-arm used it. A wake can come while the
   * re-arm's next-due read is in flight, and that read may not see the retry the wake is for (it
   * committed after the read began): the re-arm then aims for both, and does not take the store
   * for empty.
   */
  let woken = Number.POSITIVE_INFINITY;

  async function attempt(r: PendingRetry, report: RetryWalkReport): Promise<void> {
    const [event, cfg] = await Promise.all([deps.events.get(r.event_id), deps.configured.get(r.configured_event_id)]);
    const why = event ? whyCancelled(cfg as ConfiguredEvent | undefined) : 'its event is not in the log';
    if (why) {
      report.cancelled.push(r.id);
      return deps.firings.add(r.event_id, [cancelledFiring(r, why)], [], { remove: [r.id] });
    }
    const ran = await deps.runCall({ id: r.configured_event_id }, r.call, event!);
    const settled = settleAttempt({
      policy: r.policy,
      eventId: r.event_id,
      cfgId: r.configured_event_id,
      callIndex: r.call_index,
      call: r.call,
      attempt: r.attempt,
      lastDelayMs: r.last_delay_ms,
      ran,
      nowMs: clock.now(),
      random: deps.random,
    });
    report.ran.push({ id: r.id, attempt: r.attempt, ok: ran.firing.ok });
    await deps.firings.add(r.event_id, [settled.firing], [], settled.change);
  }

  async function walkOnce(): Promise<RetryWalkReport> {
    const now = clock.now();
    const report: RetryWalkReport = { ran: [], interrupted: [], cancelled: [] };
    const due = await retries.due(now, BATCH);
    lastFound = due.length;
    await Promise.all(
      due.map(async (r) => {
        if (runningHere.has(r.id)) return; // ours, still running: not interrupted
        if (r.state === 'running') {
          const taken = await retries.takeInterrupted(r.id, r.attempt, now);
          if (!taken) return;
          report.interrupted.push(r.id);
          const firing: Firing = {
            ...cancelledFiring(taken, ''),
            error: `interrupted: the daemon stopped during attempt ${taken.attempt}; not run again, since its effect may already have happened`,
            outcome: 'interrupted',
          };
          return void (await deps.firings.add(r.event_id, [firing], [], {}));
        }
        const claimed = await retries.claim(r.id, r.attempt, now, RETRY_LEASE_MS);
        if (!claimed) return; // another walker (daemon) took it
        runningHere.add(r.id);
        try {
          await attempt(claimed, report);
        } finally {
          runningHere.delete(r.id);
        }
      }),
    );
    return report;
  }

  const arm = (atMs: number) => {
    if (!running) return;
    if (handle !== null) deps.timer.clear(handle);
    const now = clock.now();
    const at = Math.min(Math.max(atMs, now + 1000), now + RETRY_POLL_MS);
    plannedAt = at;
    handle = deps.timer.set(() => {
      handle = null;
      plannedAt = null;
      void walk().catch(() => {}); // reported by the chain
    }, at - now);
  };

  const walk = (): Promise<RetryWalkReport> => {
    // One walk at a time: a walk started by hand runs after the timer's, and sees what it settled.
    const next = chain.then(walkOnce, walkOnce);
    // Re-armed whatever happened: a walk that failed (the database away for a moment) is tried again
    // at the next poll, never left asleep until some dispatch wakes it.
    const rearm = async () => {
      // (A wake clears `nonePending`, so a woken walker always reads.)
      if (nonePending && lastFound === 0) return arm(Number.POSITIVE_INFINITY);
      const nextMs = (await retries.nextDueMs()) ?? Number.POSITIVE_INFINITY;
      const aim = Math.min(nextMs, woken);
      nonePending = aim === Number.POSITIVE_INFINITY;
      woken = Number.POSITIVE_INFINITY;
      arm(aim);
    };
    chain = next
      .then(rearm, (err) => {
        deps.onError?.(err);
        return rearm();
      })
      .catch((err) => {
        deps.onError?.(err);
        arm(Number.POSITIVE_INFINITY);
      });
    return next;
  };

  return {
    walk,
    wake(dueMs) {
      nonePending = false;
      woken = Math.min(woken, dueMs);
      if (running && (plannedAt === null || dueMs < plannedAt)) arm(dueMs);
    },
    start() {
      if (running) return;
      running = true;
      // Retries due while the daemon was down run now; interrupted ones are found once their lease ran out.
      void walk().catch(() => {}); // reported by the chain
    },
    async stop() {
      running = false;
      if (handle !== null) deps.timer.clear(handle);
      handle = null;
      await chain;
    },
  };
}
