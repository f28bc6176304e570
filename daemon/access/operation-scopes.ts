import type { Grant } from '../../shared/roles.js';
import type { Scope } from '../../shared/scopes.js';

/**
 * The scope each operation needs: every Company route (by `METHOD pattern`, the pattern as the
 * route registered it) and every MCP tool action. A route or action missing here is refused to
 * everyone (permission.ts), and tests/daemon/access/operation-scopes.test.ts fails on every
 * registered route and tool action without a row, so a new one cannot ship open by mistake.
 */
export type RouteScopeTable = Readonly<Record<string, Grant | typeof ANY_MEMBER>>;

/** No grant at all: any member of the Company may (leaving it, say). */
export const ANY_MEMBER = null;

export const ROUTE_SCOPES: Readonly<Record<string, Scope>> = {
  'POST /api/agents': 'agents:write',
  'GET /api/agents': 'agents:read',
  'GET /api/agents/:id': 'agents:read',
  'POST /api/sessions': 'sessions:write',
  'GET /api/sessions': 'sessions:read',
  'GET /api/sessions/:id': 'sessions:read',
  'PATCH /api/sessions/:id': 'sessions:write',
  'POST /api/sessions/:id': 'sessions:write',
  'POST /api/sessions/:id/messages': 'messages:send',
  'POST /api/sessions/:id/turns': 'sessions:write',
  'POST /api/sessions/:id/steps': 'sessions:write',
  'POST /api/sessions/:id/turns/complete': 'sessions:write',
  'POST /api/sessions/:id/compact': 'sessions:write',
  'POST /api/sessions/:id/stop': 'sessions:write',
  'POST /api/quests': 'quests:write',
  'GET /api/quests': 'quests:read',
  'GET /api/quests/:id': 'quests:read',
  'PATCH /api/quests/:id': 'quests:write',
  'POST /api/quests/:id': 'quests:write',
  'POST /api/messages': 'messages:send',
  'GET /api/events': 'events:read',
  'GET /api/events/stream': 'events:read',
  'POST /api/events': 'events:write',
  'POST /api/events/trigger': 'events:trigger',
  'GET /api/events/trace': 'events:read',
  'POST /api/events/trace': 'events:read',
  'GET /api/events/budget': 'events:read',
  // The budget caps what every chain of the Company may set off: changing it is configuring events.
  'PUT /api/events/budget': 'events:write',
  // A dry run over the stored log: nothing is written, nothing fires.
  'POST /api/events/preview': 'events:read',
  'GET /api/events/failures': 'events:read',
  // Re-runs failed tool calls, and a backfill fires a schedule's past ticks: both do what configured events do.
  'POST /api/events/replay': 'events:write',
  'POST /api/events/:id/backfill': 'events:write',
  'GET /api/events/:id': 'events:read',
  'PATCH /api/events/:id': 'events:write',
  'POST /api/events/:id': 'events:write',
  'POST /api/events/:id/enable': 'events:write',
  'POST /api/events/:id/disable': 'events:write',
  'DELETE /api/events/:id': 'events:write',
  'POST /api/detectors/report': 'detectors:report',
  'POST /api/questions': 'questions:write',
  'GET /api/questions': 'questions:read',
  'POST /api/questions/:id/answer': 'questions:write',
  'POST /api/channels': 'channels:write',
  'GET /api/channels': 'channels:read',
  'POST /api/channels/:name/rotate': 'channels:write',
  'DELETE /api/channels/:name': 'channels:write',
};

/**
 * The account-level routes a secret key may call, with the scope each needs (the Company routes
 * are in ROUTE_SCOPES). `GET /api/audit` with a key shows only the key's own Company's entries;
 * a key made without scopes has every scope, so it may read them too (CONTRACT §9): give agents
 * keys with explicit scopes to keep the trail from them.
 */
export const ACCOUNT_ROUTE_SCOPES: RouteScopeTable = {
  'GET /api/audit': 'audit:read',
  // A call's trace shows the events it set off: the events:read grant is checked beside this one.
  'GET /api/audit/:id/trace': 'audit:read',
};

/**
 * The routes on one Company's people (`/api/companies/:id/…`): sessions only (no key reaches them,
 * and no key can hold these grants), decided by the caller's role. `POST /api/invitations/accept`
 * is not here: its caller is not a member yet, and the invitation's code is what lets them in.
 */
export const TEAM_ROUTE_SCOPES: RouteScopeTable = {
  'GET /api/companies/:id/members': 'members:read',
  'PATCH /api/companies/:id/members/:user_id': 'members:write',
  'DELETE /api/companies/:id/members/:user_id': 'members:write',
  // Pending invitations name people who are not members yet: those who manage them see them.
  'POST /api/companies/:id/invitations': 'members:write',
  'GET /api/companies/:id/invitations': 'members:write',
  'DELETE /api/companies/:id/invitations/:invitation_id': 'members:write',
  'POST /api/companies/:id/leave': ANY_MEMBER,
  'POST /api/companies/:id/transfer': 'company:transfer',
  'DELETE /api/companies/:id': 'company:delete',
};

/** No scope at all: the tool only says who the key is, which the key's holder knows already. */
export const ANY_KEY = null;

/** Per MCP tool: one scope for the whole tool, or one per `action` argument. */
export const TOOL_SCOPES: Readonly<Record<string, Scope | typeof ANY_KEY | Readonly<Record<string, Scope>>>> = {
  whoami: ANY_KEY,
  events: {
    list: 'events:read',
    trace: 'events:read',
    create: 'events:write',
    // As PATCH /api/events/:id.
    update: 'events:write',
    enable: 'events:write',
    disable: 'events:write',
    delete: 'events:write',
    trigger: 'events:trigger',
    // As their /api/events routes: reads need events:read, what runs or reconfigures needs events:write.
    failures: 'events:read',
    preview: 'events:read',
    get_budget: 'events:read',
    replay: 'events:write',
    backfill: 'events:write',
    set_budget: 'events:write',
  },
  quests: { list: 'quests:read', get: 'quests:read', create: 'quests:write', update: 'quests:write' },
  agents: { list: 'agents:read', create: 'agents:write' },
  sessions: {
    list: 'sessions:read',
    get: 'sessions:read',
    create: 'sessions:write',
    stop: 'sessions:write',
    compact: 'sessions:write',
  },
  message_to: 'messages:send',
  // The read-only halves of the tools above: the same reads, so the same scopes.
  events_read: {
    list: 'events:read',
    trace: 'events:read',
    failures: 'events:read',
    preview: 'events:read',
    get_budget: 'events:read',
  },
  quests_read: { list: 'quests:read', get: 'quests:read' },
  sessions_read: { list: 'sessions:read', get: 'sessions:read' },
  agents_read: { list: 'agents:read' },
};

/** What an operation needs: all of `scopes` (none for whoami), or `known: false` when no row covers it. */
export type ScopeNeed = { known: true; scopes: readonly Grant[] } | { known: false };

const NONE: ScopeNeed = { known: true, scopes: [] };
const UNKNOWN: ScopeNeed = { known: false };

/** The scope a REST route needs, by its method and registered pattern. */
export function routeNeed(method: string, pattern: string, table: RouteScopeTable = ROUTE_SCOPES): ScopeNeed {
  const row = `${method === 'HEAD' ? 'GET' : method} ${pattern}`;
  if (!Object.hasOwn(table, row)) return UNKNOWN;
  const scope = table[row];
  return scope ? { known: true, scopes: [scope] } : NONE;
}

/**
 * The scope a tool call needs. An action the table does not know (a typo the tool's own argument
 * check will refuse) needs every scope of the tool, so a gap between this table and a tool can
 * only ever refuse, never let through.
 */
export function toolNeed(tool: string, action: unknown): ScopeNeed {
  const entry = TOOL_SCOPES[tool];
  if (entry === undefined) return UNKNOWN;
  if (entry === ANY_KEY) return NONE;
  if (typeof entry === 'string') return { known: true, scopes: [entry] };
  const scope = typeof action === 'string' && Object.hasOwn(entry, action) ? entry[action] : undefined;
  if (scope) return { known: true, scopes: [scope] };
  return { known: true, scopes: [...new Set(Object.values(entry))] };
}

/** The scopes of which one is enough to see a tool in tools/list (any of its actions). */
export function toolVisibleWith(tool: string): readonly Scope[] | typeof ANY_KEY | undefined {
  const entry = TOOL_SCOPES[tool];
  if (entry === undefined || entry === ANY_KEY) return entry;
  return typeof entry === 'string' ? [entry] : [...new Set(Object.values(entry))];
}
