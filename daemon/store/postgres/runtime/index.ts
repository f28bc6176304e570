import type pg from 'pg';
import type { RuntimeStores } from '../../runtime-types.js';
import type { RuntimeStoreOptions } from '../../runtime/index.js';
import { createChannelStore, createDeliveryStore, createFiringStore, createQuestionStore } from './emitter-records.js';
import {
  createAgentStore,
  createConfiguredEventStore,
  createQuestStore,
  createSessionStore,
  createTranscriptStore,
} from './records.js';
import { createIdempotencyStore } from './idempotency.js';
import { createRetryStore } from './retries.js';
import { createTickStore } from './tick-cursors.js';
import { createPostgresWindowStore } from './windows.js';
import { createPostgresFlowStore } from './flow.js';
import { createPostgresFailureStore } from './failures.js';

/**
 * One Company's stores on PostgreSQL (team mode): every Company shares the tables of migration 100,
 * each row under its `company_id`. Every write commits before its promise resolves, so `flush` has
 * nothing to wait for; the pool belongs to the daemon, so `close` leaves it open for the others.
 */
export function createPostgresRuntimeStores(
  pool: pg.Pool,
  companyId: string,
  options: RuntimeStoreOptions = {},
): RuntimeStores {
  if (!companyId) throw new Error('a Company id is required');
  return {
    agents: createAgentStore(pool, companyId),
    sessions: createSessionStore(pool, companyId),
    transcripts: createTranscriptStore(pool, companyId),
    quests: createQuestStore(pool, companyId),
    configured: createConfiguredEventStore(pool, companyId),
    firings: createFiringStore(pool, companyId),
    retries: createRetryStore(pool, companyId),
    ticks: createTickStore(pool, companyId),
    channels: createChannelStore(pool, companyId),
    questions: createQuestionStore(pool, companyId),
    deliveries: createDeliveryStore(pool, companyId, {
      retentionMs: options.deliveryRetentionMs,
      maxIds: options.maxDeliveryIds,
    }),
    idempotency: createIdempotencyStore(pool, companyId, { maxKeys: options.maxIdempotencyKeys }),
    windows: createPostgresWindowStore(pool, companyId),
    flow: createPostgresFlowStore(pool, companyId),
    failures: createPostgresFailureStore(pool, companyId),
    settings: {
      async get(name) {
        const { rows } = await pool.query<{ doc: unknown }>(
          'SELECT doc FROM svc_rt_settings WHERE company_id = $1 AND name = $2',
          [companyId, name],
        );
        return rows[0]?.doc;
      },
      async put(name, value) {
        if (value === null)
          await pool.query('DELETE FROM svc_rt_settings WHERE company_id = $1 AND name = $2', [companyId, name]);
        else
          await pool.query(
            `INSERT INTO svc_rt_settings (company_id, name, doc) VALUES ($1, $2, $3)
             ON CONFLICT (company_id, name) DO UPDATE SET doc = EXCLUDED.doc`,
            [companyId, name, JSON.stringify(value)],
          );
      },
    },
    flush: async () => {},
    close: async () => {},
  };
}
