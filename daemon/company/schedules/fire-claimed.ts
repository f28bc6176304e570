import type { DuePolicy } from './due-ticks.js';
import type { EventsService, SchedulePolicy } from '../company-services.js';
import type { RetryStore } from '../../store/types.js';

type Claimed = { id: string; tick: string };

export interface FireReport {
  fired: Array<{ id: string; tick: string; event_id: string }>;
  failed: Array<{ id: string; tick: string; error: string }>;
  /** Logged as an occurrence (its `event_id`) whose trace lists the rule as not fired, reason `overlap`. */
  skipped: Array<{ id: string; tick: string; reason: 'overlap'; event_id: string }>;
}

/**
 * Fires the ticks a walk claimed. Schedules whose overlap is `skip` (`serial`) fire their ticks one
 * after the other, and skip a tick while a call of the last firing still waits for a retry (the
 * retry store is shared by every daemon of a team, so this holds across daemons). The others fire
 * all at once, as they always have.
 */
export async function fireClaimed(
  claimed: Claimed[],
  o: {
    events: Pick<EventsService, 'fire'>;
    retries?: Pick<RetryStore, 'countFor'>;
    serial: ReadonlySet<string>;
    late: ReadonlySet<string>;
    patternOf: ReadonlyMap<string, string>;
    report: FireReport;
  },
): Promise<void> {
  const { report } = o;
  const fireTick = async ({ id, tick }: Claimed) => {
    const content: Record<string, unknown> = { tick, scheduled: o.patternOf.get(id) };
    if (o.late.has(`${id}@${tick}`)) content.late = true;
    try {
      // A skipped tick is still an occurrence: its trace is where a user finds why nothing ran at that minute.
      if (o.serial.has(id) && o.retries && (await o.retries.countFor(id)) > 0) {
        const emitted = await o.events.fire(id, {
          content: { ...content, skipped: 'overlap' },
          source: 'schedule',
          skip: 'overlap',
        });
        return void report.skipped.push({ id, tick, reason: 'overlap', event_id: emitted.event.id });
      }
      const emitted = await o.events.fire(id, { content, source: 'schedule' });
      report.fired.push({ id, tick, event_id: emitted.event.id });
    } catch (err) {
      report.failed.push({ id, tick, error: (err as Error).message });
    }
  };
  const inOrder = new Map<string, Claimed[]>();
  for (const c of claimed) if (o.serial.has(c.id)) inOrder.set(c.id, [...(inOrder.get(c.id) ?? []), c]);
  await Promise.all([
    ...claimed.filter((c) => !o.serial.has(c.id)).map(fireTick),
    ...[...inOrder.values()].map(async (ticksOfOne) => {
      for (const c of ticksOfOne) await fireTick(c);
    }),
  ]);
}

/** A schedule's start and end as ms (unbounded: ±Infinity). */
export function boundsOf(own: SchedulePolicy | null | undefined, msOf: (iso: string) => number) {
  return {
    start: own?.start_at ? msOf(own.start_at) : Number.NEGATIVE_INFINITY,
    end: own?.end_at ? msOf(own.end_at) : Number.POSITIVE_INFINITY,
  };
}

/** The daemon's policy with a schedule's own catch-up settings over it. */
export function policyOf(own: SchedulePolicy, daemon: DuePolicy): DuePolicy {
  return { ...daemon, missed: own.catch_up ?? daemon.missed, maxCatchUp: own.max_catch_up ?? daemon.maxCatchUp };
}
