import type { Clock } from '../clock.js';
import type { IdGenerator } from '../ids.js';
import type { Random } from '../random.js';
import type { Sealer } from '../store/sealer.js';
import type { RuntimeStores } from '../store/runtime-types.js';
import { createDeliveryDedup } from './channels/delivery-dedup.js';
import { createQuestionDesk, type QuestionDesk } from './detectors/questions.js';
import { createScheduler, type Scheduler, type SchedulerTimer } from './schedules/scheduler.js';
import type { DuePolicy } from './schedules/due-ticks.js';
import type { RuntimeCore } from './core.js';
import type { ChannelDesk, OpenedServices } from './opened.js';

export interface EmitterWiringOptions {
  core: RuntimeCore;
  budget?: { answered(chain: string, answer: string, askedEventId: string | null): Promise<void> };
  services: OpenedServices;
  stores: RuntimeStores;
  clock: Clock;
  ids: IdGenerator;
  sealer: Sealer;
  random: Random;
  /** Missed-tick policy (docs/emitters.md): `latest` by default. */
  schedulePolicy?: Partial<DuePolicy>;
  /** The minute timer; tests pass a fake one so no test waits a real minute. */
  timer?: SchedulerTimer;
  onError(message: string, fields: Record<string, unknown>): void;
}

export interface WiredEmitters {
  scheduler: Scheduler;
  questions: QuestionDesk;
  /** What the channel routes and webhook deliveries of this Company work with. */
  channels: ChannelDesk;
}

/**
 * The emitters of one Company: the minute scheduler over its configured events, the
 * question desk, and its webhook channels. The scheduler is started by the
 * caller once the runtime is complete, and stopped before its stores close.
 */
export function wireEmitters(o: EmitterWiringOptions): WiredEmitters {
  const company_id = o.core.company.id;
  const scheduler = createScheduler({
    clock: o.clock,
    events: {
      listConfigured: (filter) => o.services.events.listConfigured(filter),
      // A tick whose fire fails stays claimed (at most once): say so in the daemon log.
      fire: async (id, options) => {
        try {
          return await o.services.events.fire(id, options);
        } catch (err) {
          o.onError('scheduled event failed to fire', {
            company_id,
            configured_event_id: id,
            err: String((err as Error)?.message ?? err),
          });
          throw err;
        }
      },
    },
    ticks: o.stores.ticks,
    retries: o.stores.retries,
    policy: o.schedulePolicy,
    timer: o.timer,
    onError: (err) => o.onError('schedule walk failed', { company_id, err: String((err as Error)?.message ?? err) }),
  });
  const questions = createQuestionDesk({
    clock: o.clock,
    ids: o.ids,
    store: o.stores.questions,
    events: o.services.events,
    agents: o.services.agents,
    sessions: o.services.sessions,
    // A question the chain budget asked: its answer continues the chain or leaves it stopped.
    onChainAnswer: (chain, answer, askedEventId) =>
      o.budget?.answered(chain, answer, askedEventId) ?? Promise.resolve(),
  });
  return {
    scheduler,
    questions,
    channels: {
      channels: o.stores.channels,
      sealer: o.sealer,
      random: o.random,
      clock: o.clock,
      dedup: createDeliveryDedup(o.stores.deliveries),
      services: o.services,
    },
  };
}
