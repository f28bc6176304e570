import type { Space } from '../engine/types.js';
import type { RuntimeStores } from '../runtime-types.js';
import {
  createChannelStore,
  createDeliveryStore,
  createFiringStore,
  createQuestionStore,
  createTickStore,
} from './emitter-records.js';
import {
  createAgentStore,
  createConfiguredEventStore,
  createQuestStore,
  createSessionStore,
  createTranscriptStore,
} from './records.js';
import { createIdempotencyStore, defineIdempotencyTable } from './idempotency-records.js';
import { createRetryStore } from './retry-records.js';
import { defineRuntimeTables } from './tables.js';
import { journalFlow } from './flow-journal.js';
import type { FailureRecord } from '../failure-types.js';

export interface RuntimeStoreOptions {
  /** How long a webhook delivery id is remembered (twice the signature tolerance) and how many at most. */
  deliveryRetentionMs?: number;
  maxDeliveryIds?: number;
  /** How many Idempotency-Key answers a Company keeps at most (100,000), oldest forgotten first. */
  maxIdempotencyKeys?: number;
}

/** Every store of one Company runtime, over one space (memory, or the Company's journal). */
export function createRuntimeStores(space: Space, options: RuntimeStoreOptions = {}): RuntimeStores {
  const t = defineRuntimeTables(space);
  return {
    agents: createAgentStore(space, t),
    sessions: createSessionStore(space, t),
    transcripts: createTranscriptStore(space, t),
    quests: createQuestStore(space, t),
    configured: createConfiguredEventStore(space, t),
    firings: createFiringStore(space, t),
    retries: createRetryStore(space, t),
    ticks: createTickStore(space, t),
    channels: createChannelStore(space, t),
    questions: createQuestionStore(space, t),
    deliveries: createDeliveryStore(space, t, {
      retentionMs: options.deliveryRetentionMs,
      maxIds: options.maxDeliveryIds,
    }),
    idempotency: createIdempotencyStore(space, defineIdempotencyTable(space), { maxKeys: options.maxIdempotencyKeys }),
    settings: {
      get: async (name) => t.settings.get(name)?.value,
      put: (name, value) =>
        space.write((tx) => {
          if (value === null) tx.remove(t.settings, name);
          else tx.put(t.settings, { id: name, value });
        }),
    },
    failures: {
      add: (record) => space.write((tx) => tx.put(t.failures, record)),
      get: async (id) => t.failures.get(id),
      list: async (filter = {}) =>
        filter.configured_event_id
          ? t.failures.lookup('configured', filter.configured_event_id)
          : [...t.failures.all()],
      // The check and the set run in one synchronous write: of two replays exactly one takes it.
      claimReplay: async (id, atIso) => {
        let taken: FailureRecord | undefined;
        await space.write((tx) => {
          const current = t.failures.get(id);
          if (!current || current.replayed_at !== null) return;
          taken = { ...current, replayed_at: atIso };
          tx.put(t.failures, taken);
        });
        return taken;
      },
      setReplayEvent: (id, eventId) =>
        space.write((tx) => {
          const current = t.failures.get(id);
          if (current) tx.put(t.failures, { ...current, replay_event_id: eventId });
        }),
    },
    // Pending debounces are kept with the Company's records; throttle windows and slots in memory.
    flow: journalFlow(space, t.debounces),
    flush: () => space.flush(),
    close: () => space.close(),
  };
}
