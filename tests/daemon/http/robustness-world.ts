import { routeGroups } from '../../../daemon/app.js';
import { DEFAULT_FACTORS } from '../../../daemon/factors-config.js';
import { issueSession } from '../../../daemon/auth/session-issuer.js';
import type { OpenedRuntime } from '../../../daemon/company/open-company.js';
import { createUser } from '../../helpers/accounts.js';
import { isCompanyPath, listRoutes, type RouteRef } from '../../helpers/bad-inputs.js';
import { createCompany, createSecretKey } from '../../helpers/keys.js';
import { createTestApp } from '../../helpers/test-app.js';
import type { SlotProbe } from '../../helpers/input-slots.js';
import type { Templates } from './robustness-templates.js';

/**
 * The world the robustness sweep runs in: an app with the throttles out of the way, a verified
 * company-tier owner with a Company, a secret key and a few runtime records, two callers the guards
 * refuse, and the 500s' stack traces caught from the error renderer's log.
 */
/** Throttles out of the way, so every bad input reaches the route's own checks instead of a 429. */
const NO_THROTTLE = [{ limit: 1_000_000, windowMs: 60_000 }];

/**
 * `database`: the same world in team mode, every store on that PostgreSQL database; `storage:
 * 'file'`: on the JSON store in a temp data folder (default: the memory stores).
 */
export async function setUp(options: { database?: string; storage?: 'file' } = {}) {
  const errors: string[] = [];
  const log = {
    info() {},
    warn() {},
    error: (_m: string, f?: Record<string, unknown>) => void errors.push(String((f?.err as Error)?.stack ?? f?.err)),
  };
  const t = await createTestApp({
    log,
    ...(options.database ? { database: options.database } : {}),
    ...(options.storage ? { storage: options.storage } : {}),
    config: {
      // The tool-call limit off too (0), so every tool call reaches the tool.
      mcpToolCallsPerMinute: 0,
      auth: {
        signupPerEmail: NO_THROTTLE,
        mailPerAddress: NO_THROTTLE,
        loginPerAddress: NO_THROTTLE,
        failureCeiling: 1_000_000,
        factors: { ...DEFAULT_FACTORS, perAddressLimit: 1_000_000 },
      },
    },
  });
  const owner = await createUser(t, { tier: 'company' });
  const company = await createCompany(t, owner);
  const sk = await createSecretKey(t, owner, company.id);
  const runtime = (await t.deps.runtimes.open({
    id: company.id,
    name: company.name,
    owner_id: owner.user.id,
  })) as OpenedRuntime;
  // Streams and long-polls end at once, so a request the battery happens to make valid never hangs.
  runtime.services.events.releaseWaiters();
  const tenant = { ...owner.auth, 'x-company': company.id };
  const agent = (await t.post('/api/agents', { name: 'ada', role: 'dev' }, tenant)).body.agent;
  const session = (await t.post('/api/sessions', { agent_id: agent.id }, tenant)).body.session;
  const quest = (await t.post('/api/quests', { title: 'q', agent_id: agent.id }, tenant)).body.quest;
  const configured = (await t.post('/api/events', { type: 'session:start', tool_calls: [] }, tenant)).body.event;
  // Something for the battery's triggers to set off: a tool run per `agent:thing`.
  const tools = [
    { tool: 'quests.create', args: { title: 'from a trigger' } },
    { tool: 'message_to', args: { to: 'dev', text: 'hi' } },
  ];
  await t.post('/api/events', { type: 'agent:thing', tool_calls: tools }, tenant);
  const question = (await t.post('/api/questions', { agent_id: agent.id, question: 'ship it?' }, tenant)).body.question;
  const channel = (await t.post('/api/channels', { name: 'inbox' }, tenant)).body.channel;
  const invite = (await t.post('/api/dev/invites', {}, t.operator)).body.code as string;
  // Callers the guards turn away at different points: a signup not yet verified, a trial account.
  const others = [await createUser(t, { verified: false }), await createUser(t, { tier: 'trial' })];
  return {
    t,
    errors,
    owner,
    others,
    company,
    sk,
    runtime,
    ids: idsOf({ agent, session, quest, configured, question, channel }),
    invite,
  };
}

export type World = Awaited<ReturnType<typeof setUp>>;

/** The records the sweep's `:id`s point at (the fuzz makes the same set on its daemon). */
export interface WorldIds {
  agent: string;
  session: string;
  quest: string;
  configured: string;
  question: string;
  channel: string;
}

/** Every route the app serves: its routers, the Company routes (detectors and channels included) among them. */
export function allRoutes(w: World): RouteRef[] {
  return listRoutes(routeGroups(w.t.deps));
}

const PARAM_OWNERS: [prefix: string, id: keyof WorldIds][] = [
  ['/api/agents/', 'agent'],
  ['/api/sessions/', 'session'],
  ['/api/quests/', 'quest'],
  ['/api/events/', 'configured'],
  ['/api/questions/', 'question'],
  ['/api/channels/', 'channel'],
  ['/api/webhooks/', 'channel'],
];

type Made = { id: string };
/** The ids (a channel's is its name) of the records made for the sweep. */
export const idsOf = (
  r: Record<Exclude<keyof WorldIds, 'channel'>, Made> & { channel: { name: string } },
): WorldIds => ({
  agent: r.agent.id,
  session: r.session.id,
  quest: r.quest.id,
  configured: r.configured.id,
  question: r.question.id,
  channel: r.channel.name,
});

/** A real id for a path's parameter where the route has one, so bad bodies reach the handler past the lookup. */
export function realIdIn(ids: WorldIds, path: string): string | null {
  const owner = PARAM_OWNERS.find(([prefix]) => path.startsWith(prefix));
  return owner ? ids[owner[1]] : null;
}

export function realId(w: World, path: string): string | null {
  return realIdIn(w.ids, path);
}

export async function headersFor(w: World, path: string, via: 'session' | 'key'): Promise<Record<string, string>> {
  if (path.startsWith('/api/dev/')) return w.t.operator;
  // The MCP endpoint wants both answer types accepted (Streamable HTTP), else it stops at a 406.
  if (path.startsWith('/api/mcp'))
    return { authorization: `Bearer ${w.sk.key}`, accept: 'application/json, text/event-stream' };
  if (via === 'key' && isCompanyPath(path)) return { authorization: `Bearer ${w.sk.key}` };
  // A fresh session per route: a battery that logs out (or revokes) must not blind the next route.
  const { token } = await issueSession(w.t.deps, { user: w.owner.user, kind: 'full', method: ['pwd'] });
  return { authorization: `Bearer ${token}`, ...(isCompanyPath(path) ? { 'x-company': w.company.id } : {}) };
}

/**
 * How input-slots.ts runs a route of this world once: with a real id in its path, its valid
 * templates, and, on a Company route, once more without X-Company so the query's Company
 * selectors (`company_id`, `trust_id`) are read too.
 */
export function slotProbes(w: World, templates: Templates): (route: RouteRef) => Promise<SlotProbe[]> {
  return async (route) => {
    const url = route.path.replace(/:[A-Za-z_]+/g, realId(w, route.path) ?? 'x');
    const headers = await headersFor(w, route.path, 'session');
    const bodies = route.method === 'GET' ? [] : [templates[`${route.method} ${route.path}`] ?? {}].flat();
    const { 'x-company': selected, ...unselected } = headers;
    const probes: SlotProbe[] = [{ label: 'selected', url, headers, bodies }];
    if (selected !== undefined) probes.push({ label: 'unselected', url, headers: unselected, bodies });
    return probes;
  };
}
