import type { Clock } from '../../../clock.js';
import type { ConfiguredEvent, EventRow } from '../../company-services.js';
import type { SchedulerTimer } from '../../schedules/minute-loop.js';
import type { FlowControl } from './flow-control.js';

/** The longest the walker sleeps: in team mode another daemon may have left a debounce due. */
const POLL_MS = 60_000;
const BATCH = 100;

export interface DebounceWalkerDeps {
  clock: Clock;
  flow: FlowControl;
  timer: SchedulerTimer;
  events: { get(id: string): Promise<EventRow | undefined> };
  configured: { get(id: string): Promise<ConfiguredEvent | undefined> };
  /** Fires `cfg` for the last event of its burst (throttle and concurrency still apply). */
  fire(cfg: ConfiguredEvent, event: EventRow): Promise<void>;
  /** A rule paused since the burst began fires nothing: its event is marked `paused`. */
  skip(cfg: ConfiguredEvent, event: EventRow): Promise<void>;
  onError?(err: unknown): void;
}

/**
 * Fires debounced rules once their quiet has come. Each pending debounce is taken (removed) from
 * the store before it fires, so it fires once, on one daemon; a rule deleted meanwhile fires nothing.
 */
export function createDebounceWalker(deps: DebounceWalkerDeps) {
  let handle: unknown = null;
  let plannedAt = Number.POSITIVE_INFINITY;
  let running = false;
  let chain: Promise<unknown> = Promise.resolve();

  const walkOnce = async (): Promise<number> => {
    let fired = 0;
    for (;;) {
      const due = await deps.flow.takeDue(BATCH);
      await Promise.all(
        due.map(async (d) => {
          const [event, cfg] = await Promise.all([
            deps.events.get(d.event_id),
            deps.configured.get(d.configured_event_id),
          ]);
          if (!event || !cfg) return;
          fired++;
          await (cfg.enabled ? deps.fire(cfg, event) : deps.skip(cfg, event));
        }),
      );
      if (due.length < BATCH) return fired;
    }
  };

  const arm = (atMs: number) => {
    if (!running || atMs >= plannedAt) return;
    if (handle !== null) deps.timer.clear(handle);
    plannedAt = atMs;
    handle = deps.timer.set(
      () => {
        handle = null;
        plannedAt = Number.POSITIVE_INFINITY;
        void walker.walk().catch((err) => deps.onError?.(err));
      },
      Math.max(0, atMs - deps.clock.now()),
    );
  };

  const walker = {
    /** Fires every debounce due now; answers how many fired (or were marked paused). */
    walk(): Promise<number> {
      const run = chain.then(async () => {
        const n = await walkOnce();
        const next = await deps.flow.nextDueMs();
        arm(Math.min(next ?? Number.POSITIVE_INFINITY, deps.clock.now() + POLL_MS));
        return n;
      });
      chain = run.catch(() => {});
      return run;
    },
    /** A debounce was pushed, due at `dueMs`. */
    wake(dueMs: number | null): void {
      if (dueMs !== null) arm(dueMs);
    },
    start(): void {
      running = true;
      // Debounces left pending by a restart (or by another daemon) fire if due, else when they come due.
      void walker.walk().catch((err) => deps.onError?.(err));
    },
    async stop(): Promise<void> {
      running = false;
      if (handle !== null) deps.timer.clear(handle);
      handle = null;
      await chain;
    },
  };
  return walker;
}

export type DebounceWalker = ReturnType<typeof createDebounceWalker>;
