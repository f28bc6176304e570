import type { Router } from '@koa/router';
import { z } from 'zod';
import { validate } from '../http/validate.js';
import { QUEST_STATUSES } from './quests.js';
import { orMissing } from './core.js';
import type { OpenedRuntime } from './opened.js';

type Services = OpenedRuntime['services'];

const sessionQuery = z.object({
  agent_id: z.string().min(1).optional(),
  status: z.enum(['active', 'stopped']).optional(),
});
const questQuery = z.object({
  status: z.enum(QUEST_STATUSES).optional(),
  agent_id: z.string().min(1).optional(),
  session_id: z.string().min(1).optional(),
});
const appendBody = z.object({
  text: z.string().min(1).max(100_000),
  from: z.string().trim().min(1).max(200).default('user'),
  start_turn: z.boolean().default(false),
});
const sessionChange = z.object({
  gateway_channel_id: z.string().min(1).max(200).nullable().optional(),
  context_budget: z.number().int().min(1).nullable().optional(),
  status: z.literal('stopped').optional(),
});

/**
 * Agents, sessions, quests and messages over REST (paths are full `/api/...` paths; the gateway
 * selected the Company). Thin wrappers over the services, so REST and MCP behave the same.
 */
export function runtimeRoutes(router: Router, s: Services): void {
  router.post('/api/agents', async (ctx) => {
    ctx.status = 201;
    ctx.body = { ok: true, agent: await s.agents.create(ctx.request.body as any) };
  });
  router.get('/api/agents', async (ctx) => void (ctx.body = { agents: await s.agents.list() }));
  router.get(
    '/api/agents/:id',
    async (ctx) => void (ctx.body = { agent: orMissing(await s.agents.get(ctx.params.id!), 'agent', ctx.params.id!) }),
  );

  router.post('/api/sessions', async (ctx) => {
    ctx.status = 201;
    ctx.body = { ok: true, session: await s.sessions.create(ctx.request.body as any) };
  });
  router.get(
    '/api/sessions',
    async (ctx) => void (ctx.body = { sessions: await s.sessions.list(validate(sessionQuery, ctx.query)) }),
  );
  router.get(
    '/api/sessions/:id',
    async (ctx) =>
      void (ctx.body = { session: orMissing(await s.sessions.get(ctx.params.id!), 'session', ctx.params.id!) }),
  );
  const updateSession = async (ctx: any) => {
    ctx.body = { ok: true, session: await s.sessions.update(ctx.params.id, validate(sessionChange, ctx.request.body)) };
  };
  router.patch('/api/sessions/:id', updateSession);
  router.post('/api/sessions/:id', updateSession);
  router.post('/api/sessions/:id/messages', async (ctx) => {
    const body = validate(appendBody, ctx.request.body);
    ctx.body = {
      ok: true,
      session: await s.sessions.append(
        ctx.params.id!,
        { from: body.from, text: body.text },
        { startTurn: body.start_turn },
      ),
    };
  });
  router.post(
    '/api/sessions/:id/turns',
    async (ctx) => void (ctx.body = { ok: true, session: await s.sessions.startTurn(ctx.params.id!) }),
  );
  router.post(
    '/api/sessions/:id/steps',
    async (ctx) => void (ctx.body = { ok: true, session: await s.sessions.step(ctx.params.id!) }),
  );
  router.post(
    '/api/sessions/:id/turns/complete',
    async (ctx) => void (ctx.body = { ok: true, session: await s.sessions.completeTurn(ctx.params.id!) }),
  );
  router.post(
    '/api/sessions/:id/stop',
    async (ctx) => void (ctx.body = { ok: true, session: await s.sessions.stop(ctx.params.id!) }),
  );

  router.post('/api/quests', async (ctx) => {
    ctx.status = 201;
    ctx.body = { ok: true, quest: await s.quests.create(ctx.request.body as any) };
  });
  router.get(
    '/api/quests',
    async (ctx) => void (ctx.body = { quests: await s.quests.list(validate(questQuery, ctx.query)) }),
  );
  router.get(
    '/api/quests/:id',
    async (ctx) => void (ctx.body = { quest: orMissing(await s.quests.get(ctx.params.id!), 'quest', ctx.params.id!) }),
  );
  const updateQuest = async (ctx: any) => {
    ctx.body = { ok: true, quest: await s.quests.update(ctx.params.id, ctx.request.body ?? {}) };
  };
  router.patch('/api/quests/:id', updateQuest);
  router.post('/api/quests/:id', updateQuest);

  router.post('/api/messages', async (ctx) => {
    ctx.body = { ok: true, ...(await s.messageTo(ctx.request.body as any)) };
  });
}
