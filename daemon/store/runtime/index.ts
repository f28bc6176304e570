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
    flush: () => space.flush(),
    close: () => space.close(),
  };
}
