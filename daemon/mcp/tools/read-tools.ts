import * as z from 'zod';
import { agentsTool } from './agents.js';
import { eventsTool } from './events.js';
import { questsTool } from './quests.js';
import { sessionsTool } from './sessions.js';
import { defineTool, type McpTool, READ_ONLY } from './types.js';

/**
 * The read-only half of each tool that mixes reads and writes. A client decides per tool whether
 * to ask before a call (and a user approves "always" per tool), so a tool that may delete makes
 * every read ask too; these carry `readOnlyHint: true` truthfully, and a monitoring agent can be
 * given only them. Each runs its parent's own read actions (the same arguments, the same answers)
 * and accepts no other action, so it cannot reach a write.
 */
interface ReadView {
  name: string;
  title: string;
  description: string;
  /** The parent's read actions; the first is the default. */
  actions: [string, ...string[]];
  /** The parent's arguments these actions use, each with the description a reader needs. */
  fields: Record<string, string>;
  /** The fields of the parent's answer these actions fill; a text replaces the parent's description. */
  answers: Record<string, string | null>;
}

function readView(parent: McpTool, view: ReadView): McpTool {
  const shape = parent.input.shape as Record<string, z.ZodType>;
  const fields = Object.fromEntries(
    Object.entries(view.fields).map(([name, description]) => [name, shape[name]!.describe(description)]),
  );
  const parentAnswer = parent.output.shape as Record<string, z.ZodType>;
  const answers = Object.fromEntries(
    Object.entries(view.answers).map(([name, description]) => {
      const field = parentAnswer[name]!;
      return [name, description ? field.describe(description) : field];
    }),
  );
  return defineTool({
    name: view.name,
    title: view.title,
    description: view.description,
    input: z.strictObject({
      action: z
        .enum(view.actions)
        .default(view.actions[0])
        .describe(`What to read: ${view.actions.join(', ')} (default ${view.actions[0]}).`),
      ...fields,
    }),
    output: z.object(answers).loose(),
    annotations: READ_ONLY,
    run: (args, ctx) => parent.run(args, ctx),
  });
}

export const eventsReadTool = readView(eventsTool, {
  name: 'events_read',
  title: 'Events (read-only)',
  description:
    'Reads the events bus without changing it: the list, trace, failures, preview and get_budget actions of the events tool, with the same arguments and answers. list {event_type?, agent_id?, session_id?, quest_id?, since?, since_id?, limit?} → {events, next_since_id, cursor}, oldest first; list {configured: true} → {events: configured events}; trace {event_id} → {event, fired, not_fired, children}; failures {configured_event_id?, since?, until?} → {failures}; preview {rule, since, until?} → {would_fire, not_fired}, a dry run of a rule over the stored events (nothing stored or run); get_budget → {budget}.',
  actions: ['list', 'trace', 'failures', 'preview', 'get_budget'],
  fields: {
    event_type: 'list: only events of this type.',
    type: 'list: same as event_type.',
    agent_id: 'list: only events about this agent.',
    session_id: 'list: only events about this session.',
    quest_id: 'list: only events about this quest.',
    since:
      'list: an ISO time; events created at or after it. failures: failed at or after it. preview: the start of the stored events to run the rule over.',
    until: 'failures: failed at or before this ISO time. preview: the end of the range (default now).',
    configured_event_id: 'failures: only the failures of this configured event (cev_…).',
    rule: "preview: the configured event to try, as the events tool's create takes it ({type, tool_calls, matcher?, debounce?, throttle?, concurrency?, …}).",
    since_id: "list: events strictly after this event id: pass the previous page's next_since_id (or cursor).",
    limit: 'list: page size, 1-1000 (default 100).',
    configured: 'list: true lists the configured events (the reactions) instead of the event log.',
    event_id: 'trace: the event (evt_…) whose causation tree to show.',
  },
  answers: {
    events: null,
    next_since_id: null,
    cursor: null,
    event: 'trace: the logged event {id, type, content, causation_id, correlation_id, created_at, …}.',
    fired: 'trace: each tool call the event caused.',
    children: null,
    truncated: null,
    failures: null,
    would_fire: null,
    not_fired: null,
    ok: 'preview: true.',
    budget: 'get_budget: the chain budget {max_firings, max_tool_calls, within_ms}, null when off.',
  },
});

export const questsReadTool = readView(questsTool, {
  name: 'quests_read',
  title: 'Quests (read-only)',
  description:
    'Reads quests without changing them: list {status?, agent_id?, session_id?} → {quests}, get {id} → {quest}.',
  actions: ['list', 'get'],
  fields: {
    id: 'get: the quest.',
    status: 'list: only quests in this status.',
    agent_id: 'list: only quests of this agent.',
    session_id: 'list: only quests of this session.',
  },
  answers: { quest: 'get: the quest.', quests: null },
});

export const sessionsReadTool = readView(sessionsTool, {
  name: 'sessions_read',
  title: 'Agent sessions (read-only)',
  description:
    'Reads agent sessions without changing them: list {agent_id?, status?} → {sessions}, get {id} → {session}.',
  actions: ['list', 'get'],
  fields: {
    id: 'get: the session.',
    agent_id: 'list: only sessions of this agent.',
    status: 'list: only sessions in this status.',
  },
  answers: { session: 'get: the session.', sessions: null },
});

export const agentsReadTool = readView(agentsTool, {
  name: 'agents_read',
  title: 'Agents (read-only)',
  description: 'Lists the agents of the Company without changing anything: list → {agents}.',
  actions: ['list'],
  fields: {},
  answers: { agents: null },
});
