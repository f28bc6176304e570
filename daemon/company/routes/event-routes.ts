import type { RouteRegistrar } from '../../http/route-registrar.js';
import * as z from 'zod';
import { ErrorCode } from '../../../shared/errors.js';
import { notFound } from '../../http/api-error.js';
import { boundedJson } from '../../http/json-depth.js';
import { validate } from '../../http/validate.js';
import type { Context } from 'koa';
import { openedOf } from './opened-of.js';
import type { ConfiguredEvent, EventFilter, NewConfiguredEvent } from '../company-services.js';
import { presentConfigured } from '../bus/emitter-input.js';
import { isSchedulePattern } from '../../../shared/cron.js';
import { MAX_LIMIT } from '../../store/event-log/index.js';
import { MAX_WAIT_SECONDS, waitForEvents } from '../bus/follow.js';
import { streamEvents } from '../bus/stream.js';
import { listNewest } from '../bus/newest-events.js';
import { invalid } from '../../domain-error.js';
import { answerOnce } from './idempotent-route.js';

const id = z.string().trim().min(1).max(200);
const listQuery = z.object({
  event_type: z.string().trim().min(1).max(200).optional(),
  agent_id: id.optional(),
  session_id: id.optional(),
  quest_id: id.optional(),
  since: z.iso
    .datetime({ offset: true, message: 'since must be an ISO 8601 timestamp, e.g. 2026-01-15T12:00:00Z' })
    .optional(),
  since_id: id.optional(),
  limit: z.coerce.number().int().min(1).max(MAX_LIMIT).optional(),
  /** The newest N that match, still oldest first (a log's tail); not with since_id, limit or wait. */
  last: z.coerce.number().int().min(1).max(MAX_LIMIT).optional(),
  configured: z.enum(['true', 'false']).optional(),
  scheduled: z.enum(['true', 'false']).optional(),
  wait: z.coerce.number().min(0).max(MAX_WAIT_SECONDS).optional(),
});
const triggerById = z.object({ configured_event_id: id, content: boundedJson.optional() }).strict();
const triggerByType = z
  .object({
    type: z.string().min(1).max(200),
    agent_id: id.nullish(),
    session_id: id.nullish(),
    quest_id: id.nullish(),
    content: boundedJson.optional(),
  })
  .strict();
const traceInput = z.object({ event_id: id });

/**
 * The events routes (CONTRACT §8 plus enable/disable/delete and live following). `/trace` and
 * `/trigger` come before `/:id` so they are never read as ids.
 */
export function eventRoutes(router: RouteRegistrar): void {
  const eventsOf = (ctx: Context) => openedOf(ctx).services.events;
  const view = (ctx: Context, cfg: ConfiguredEvent) => presentConfigured(cfg, openedOf(ctx).core.clock.now());

  router.get('/api/events', async (ctx) => {
    const ev = eventsOf(ctx);
    const q = validate(listQuery, ctx.query);
    const filter: EventFilter = {
      event_type: q.event_type,
      agent_id: q.agent_id,
      session_id: q.session_id,
      quest_id: q.quest_id,
    };
    if (q.configured === 'true' || q.scheduled === 'true') {
      const all = await ev.listConfigured(filter);
      const chosen =
        q.scheduled === 'true'
          ? all.filter((c) => isSchedulePattern(c.type))
          : q.scheduled === 'false'
            ? all.filter((c) => !isSchedulePattern(c.type))
            : all;
      ctx.body = { events: chosen.map((cfg) => view(ctx, cfg)) };
      return;
    }
    if (q.last !== undefined) {
      if (q.since_id !== undefined || q.limit !== undefined || q.wait !== undefined)
        throw invalid('last cannot be combined with since_id, limit or wait.', ErrorCode.validationFailed);
      const lastSeen = (await ev.lastId?.()) ?? null;
      const events = await listNewest(ev, { ...filter, since: q.since }, q.last);
      ctx.body = { events, next_since_id: null, cursor: events.at(-1)?.id ?? lastSeen };
      return;
    }
    const query = { ...filter, since: q.since, since_id: q.since_id, limit: q.limit };
    // Taken before the query: an event appended later is after this cursor, so a follower never misses it.
    const lastSeen = (await ev.lastId?.()) ?? null;
    const page = await waitForEvents(ctx, ev, q.wait ?? 0, async () => {
      const p = await ev.list(query);
      return p.events.length > 0 ? p : null;
    });
    const events = page?.events ?? [];
    ctx.body = {
      events,
      next_since_id: page?.next_since_id ?? null,
      // Where to continue from, always set: the last event returned, else the cursor given, else the log's end.
      cursor: events.at(-1)?.id ?? q.since_id ?? lastSeen,
    };
  });

  router.get('/api/events/stream', async (ctx) => {
    const q = validate(listQuery, ctx.query);
    await streamEvents(
      ctx,
      eventsOf(ctx),
      { event_type: q.event_type, agent_id: q.agent_id, session_id: q.session_id, quest_id: q.quest_id },
      q.since_id,
    );
  });

  router.post('/api/events', async (ctx) => {
    ctx.status = 201;
    ctx.body = { ok: true, event: view(ctx, await eventsOf(ctx).create(ctx.request.body as NewConfiguredEvent)) };
  });

  router.post('/api/events/trigger', async (ctx) => {
    const ev = eventsOf(ctx);
    const raw = ctx.request.body;
    // Two shapes; picking the schema first makes the 400 name the field that is wrong.
    const byId = typeof raw === 'object' && raw !== null && 'configured_event_id' in raw;
    const trigger = async () => ({
      ok: true,
      ...(byId
        ? await ev.fire(validate(triggerById, raw).configured_event_id, {
            content: (raw as { content?: unknown }).content,
            source: 'manual',
          })
        : await ev.emit({ ...validate(triggerByType, raw), source: 'manual' })),
    });
    // CONTRACT §8: a repeat within 24 h answers what the first call answered and fires nothing.
    ctx.body = await answerOnce(ctx, ev, 'trigger', raw, trigger);
  });

  const trace = async (ctx: Context, eventId: string) => {
    const tree = await eventsOf(ctx).trace(eventId);
    if (!tree) throw notFound(`No event ${eventId} in this Company's log.`, ErrorCode.eventNotFound);
    return tree;
  };
  router.get(
    '/api/events/trace',
    async (ctx) => void (ctx.body = await trace(ctx, validate(traceInput, ctx.query).event_id)),
  );
  router.post(
    '/api/events/trace',
    async (ctx) => void (ctx.body = await trace(ctx, validate(traceInput, ctx.request.body).event_id)),
  );

  // The chain budget: a Company setting (bus/flow/budget.ts). Before `/:id`, so it is never read as an id.
  router.get('/api/events/budget', async (ctx) => {
    ctx.body = { budget: await eventsOf(ctx).budget.get() };
  });
  router.put('/api/events/budget', async (ctx) => {
    ctx.body = { ok: true, budget: await eventsOf(ctx).budget.set(ctx.request.body) };
  });

  // A dry run of a rule over the stored log (bus/preview.ts): nothing stored, nothing run.
  router.post('/api/events/preview', async (ctx) => {
    ctx.body = { ok: true, ...(await eventsOf(ctx).preview(ctx.request.body)) };
  });
  // Failed calls and their replay (bus/replay.ts).
  router.get('/api/events/failures', async (ctx) => {
    ctx.body = { failures: await eventsOf(ctx).failures.list(ctx.query) };
  });
  router.post('/api/events/replay', async (ctx) => {
    ctx.body = { ok: true, ...(await eventsOf(ctx).failures.replay(ctx.request.body)) };
  });

  router.get('/api/events/:id', async (ctx) => {
    const ev = eventsOf(ctx);
    const cfg = await ev.get(ctx.params.id!);
    const found = cfg ? view(ctx, cfg) : await ev.occurrence?.(ctx.params.id!);
    if (!found) throw notFound(`No event ${ctx.params.id} in this Company.`, ErrorCode.eventNotFound);
    ctx.body = { event: found };
  });
  // The service checks the body (bus/configured-schema.ts), so REST and MCP refuse alike.
  for (const method of ['patch', 'post'] as const)
    router[method](
      '/api/events/:id',
      async (ctx) =>
        void (ctx.body = {
          ok: true,
          event: view(
            ctx,
            await eventsOf(ctx).update(ctx.params.id!, (ctx.request.body ?? {}) as Partial<NewConfiguredEvent>),
          ),
        }),
    );
  router.post(
    '/api/events/:id/enable',
    async (ctx) =>
      void (ctx.body = { ok: true, event: view(ctx, await eventsOf(ctx).setEnabled(ctx.params.id!, true)) }),
  );
  router.post(
    '/api/events/:id/disable',
    async (ctx) =>
      void (ctx.body = { ok: true, event: view(ctx, await eventsOf(ctx).setEnabled(ctx.params.id!, false)) }),
  );
  // Past ticks of a schedule, run now (schedules/backfill.ts).
  router.post('/api/events/:id/backfill', async (ctx) => {
    ctx.body = { ok: true, ...(await eventsOf(ctx).backfill(ctx.params.id!, ctx.request.body)) };
  });
  router.delete('/api/events/:id', async (ctx) => {
    await eventsOf(ctx).delete(ctx.params.id!);
    ctx.body = { ok: true, id: ctx.params.id, deleted: true };
  });
}
