import type { Context } from 'koa';
import type { RouteRegistrar } from '../../http/route-registrar.js';
import { validate } from '../../http/validate.js';
import { orMissing } from '../core.js';
import { openedOf } from './opened-of.js';
import {
  sessionCompactBody as compactBody,
  questListQuery as questQuery,
  sessionAppendBody as appendBody,
  sessionChangeBody as sessionChange,
  sessionListQuery as sessionQuery,
} from '../../../shared/schemas/runtime.js';

/**
 * The body handed to a service as it came: the services check their own input (so a REST call and
 * an MCP tool call are refused with the same words), and the type is the service's to state.
 */
const asInput = <T>(body: unknown): T => body as T;

/**
 * Agents, sessions, quests and messages over REST (paths are full `/api/...` paths; the tenant
 * middleware selected the Company). Thin wrappers over the services, so REST and MCP behave the same.
 */
export function runtimeRoutes(router: RouteRegistrar): void {
  const services = (ctx: Context) => openedOf(ctx).services;
  router.post('/api/agents', async (ctx) => {
    ctx.status = 201;
    ctx.body = { ok: true, agent: await services(ctx).agents.create(asInput(ctx.request.body)) };
  });
  router.get('/api/agents', async (ctx) => void (ctx.body = { agents: await services(ctx).agents.list() }));
  router.get(
    '/api/agents/:id',
    async (ctx) =>
      void (ctx.body = { agent: orMissing(await services(ctx).agents.get(ctx.params.id!), 'agent', ctx.params.id!) }),
  );

  router.post('/api/sessions', async (ctx) => {
    ctx.status = 201;
    ctx.body = { ok: true, session: await services(ctx).sessions.create(asInput(ctx.request.body)) };
  });
  router.get(
    '/api/sessions',
    async (ctx) => void (ctx.body = { sessions: await services(ctx).sessions.list(validate(sessionQuery, ctx.query)) }),
  );
  router.get(
    '/api/sessions/:id',
    async (ctx) =>
      void (ctx.body = {
        session: orMissing(await services(ctx).sessions.get(ctx.params.id!), 'session', ctx.params.id!),
      }),
  );
  for (const method of ['patch', 'post'] as const)
    router[method]('/api/sessions/:id', async (ctx) => {
      const change = validate(sessionChange, ctx.request.body);
      ctx.body = { ok: true, session: await services(ctx).sessions.update(ctx.params.id!, change) };
    });
  router.post('/api/sessions/:id/messages', async (ctx) => {
    const body = validate(appendBody, ctx.request.body);
    ctx.body = {
      ok: true,
      session: await services(ctx).sessions.append(
        ctx.params.id!,
        { from: body.from, text: body.text },
        { startTurn: body.start_turn },
      ),
    };
  });
  router.post(
    '/api/sessions/:id/turns',
    async (ctx) => void (ctx.body = { ok: true, session: await services(ctx).sessions.startTurn(ctx.params.id!) }),
  );
  router.post(
    '/api/sessions/:id/steps',
    async (ctx) => void (ctx.body = { ok: true, session: await services(ctx).sessions.step(ctx.params.id!) }),
  );
  router.post(
    '/api/sessions/:id/turns/complete',
    async (ctx) => void (ctx.body = { ok: true, session: await services(ctx).sessions.completeTurn(ctx.params.id!) }),
  );
  router.post('/api/sessions/:id/compact', async (ctx) => {
    const body = validate(compactBody, ctx.request.body ?? {});
    ctx.body = { ok: true, ...(await services(ctx).sessions.compact(ctx.params.id!, body)) };
  });
  router.post(
    '/api/sessions/:id/stop',
    async (ctx) => void (ctx.body = { ok: true, session: await services(ctx).sessions.stop(ctx.params.id!) }),
  );

  router.post('/api/quests', async (ctx) => {
    ctx.status = 201;
    ctx.body = { ok: true, quest: await services(ctx).quests.create(asInput(ctx.request.body)) };
  });
  router.get(
    '/api/quests',
    async (ctx) => void (ctx.body = { quests: await services(ctx).quests.list(validate(questQuery, ctx.query)) }),
  );
  router.get(
    '/api/quests/:id',
    async (ctx) =>
      void (ctx.body = { quest: orMissing(await services(ctx).quests.get(ctx.params.id!), 'quest', ctx.params.id!) }),
  );
  for (const method of ['patch', 'post'] as const)
    router[method]('/api/quests/:id', async (ctx) => {
      ctx.body = {
        ok: true,
        quest: await services(ctx).quests.update(ctx.params.id!, asInput(ctx.request.body ?? {})),
      };
    });

  router.post('/api/messages', async (ctx) => {
    ctx.body = { ok: true, ...(await services(ctx).messageTo(asInput(ctx.request.body))) };
  });
}
