import * as z from 'zod';
import { ErrorCode } from '../../../shared/errors.js';
import { invalid } from '../../domain-error.js';
import { messageSchema } from '../services/messages.js';
import { newQuestSchema, questChangeSchema } from '../services/quests.js';
import type { CompanyServices, EmitInput, Emitted, EventRow, ToolCall } from '../company-services.js';

export type ToolServices = Omit<CompanyServices, 'events'>;
import { checkReferences } from './references.js';

/**
 * What a tool call runs with: the runtime's services (built before the events service, so every
 * one but it), `emit` for a tool that emits an event itself, and the event that fired it (the
 * cause of what it does).
 */
export interface ToolContext {
  services: ToolServices;
  emit(input: EmitInput): Promise<Emitted>;
  event: EventRow;
}

export interface ToolDefinition {
  name: string;
  description: string;
  /** Checked when the configured event is created, so a broken call is refused up front. */
  args: z.ZodType;
  // biome-ignore lint/suspicious/noExplicitAny: each tool's `args` schema has parsed the value before `run` sees it; the registry holds tools of every argument type
  run(args: any, ctx: ToolContext): Promise<unknown>;
}

const sessionsUpdateArgs = z
  .object({
    session_id: z.string().min(1).optional(),
    status: z.literal('stopped').optional(),
    gateway_channel_id: z.string().min(1).max(200).nullable().optional(),
    context_budget: z.number().int().min(1).nullable().optional(),
    append: z.object({ from: z.string().min(1).max(200).optional(), text: z.string().min(1).max(100_000) }).optional(),
    start_turn: z.boolean().optional(),
  })
  .strict();

/** Ids a tool call leaves out are taken from the event that fired it (a quest's own event updates that quest). */
const orEvent = (given: string | undefined, fromEvent: string | null, what: string): string => {
  const id = given ?? fromEvent;
  if (!id) throw invalid(`${what} is missing, and the event that fired this call has none.`, ErrorCode.invalidToolArgs);
  return id;
};

const withEventOwner = <A extends { agent_id?: string | null; session_id?: string | null }>(
  args: A,
  event: EventRow,
): A => {
  if (args.agent_id !== undefined || args.session_id !== undefined) return args;
  return event.session_id ? { ...args, session_id: event.session_id } : { ...args, agent_id: event.agent_id };
};

export const BUILTIN_TOOLS: ToolDefinition[] = [
  {
    name: 'quests.create',
    description: 'Creates a quest: { title, agent_id?, session_id? }.',
    args: newQuestSchema.strict(),
    // Scoped default: a rule that names no owner files the quest for the event's session (and so its
    // agent), else its agent. An explicit null keeps the quest unowned.
    run: (args, { services, event }) => services.quests.create(withEventOwner(args, event), event.id),
  },
  {
    name: 'quests.update',
    description:
      "Moves or edits a quest: { quest_id? (default: the event's quest), status?, result?, title?, agent_id?, session_id? }.",
    args: questChangeSchema.extend({ quest_id: z.string().min(1).optional() }).strict(),
    run: ({ quest_id, ...change }, { services, event }) =>
      services.quests.update(orEvent(quest_id, event.quest_id, 'quest_id'), change, event.id),
  },
  {
    name: 'message_to',
    description:
      'Sends a message to an agent id or a role (one of its agents is picked) and starts a turn: { to, text, from? }.',
    args: messageSchema.strict(),
    run: (args, { services, event }) => services.messageTo(args, event.id),
  },
  {
    name: 'sessions.update',
    description:
      "Changes a session: { session_id? (default: the event's session), status?: 'stopped', gateway_channel_id?, context_budget?, append?: { from?, text }, start_turn? }.",
    args: sessionsUpdateArgs,
    run: async ({ session_id, status, append, start_turn, ...fields }, { services, event }) => {
      const id = orEvent(session_id, event.session_id, 'session_id');
      const sessions = services.sessions;
      if (Object.keys(fields).length > 0) await sessions.update!(id, fields, event.id);
      if (append)
        await sessions.append(
          id,
          { from: append.from ?? `event:${event.id}`, text: append.text },
          { caused_by: event.id },
        );
      if (start_turn) await sessions.startTurn!(id, event.id);
      if (status === 'stopped') return sessions.stop(id, event.id);
      return sessions.get(id);
    },
  },
  {
    name: 'sessions.compact',
    description:
      "Hands a session's transcript to a role as a summarising quest; the session continues from the summary: { session_id? (default: the event's session), role? (default: the daemon's compaction role) }.",
    args: z
      .object({ session_id: z.string().min(1).optional(), role: z.string().trim().min(1).max(200).optional() })
      .strict(),
    // Answers without the transcript: the firing is kept for trace, and a transcript can be long.
    run: async ({ session_id, role }, { services, event }) => {
      const id = orEvent(session_id, event.session_id, 'session_id');
      const { started, quest, session } = await services.sessions.compact!(id, { role }, event.id);
      return { started, quest, compaction: session.compaction ?? null };
    },
  },
];

/**
 * The tools a configured event may call, by name and description, for what clients are shown (the
 * MCP events tool's tool_calls schema): taken from the list the registry checks against, so what
 * a client is offered and what the runtime accepts cannot drift apart.
 */
export const BUILTIN_TOOL_CATALOG: readonly { name: string; description: string }[] = BUILTIN_TOOLS.map(
  ({ name, description }) => ({ name, description }),
);

export interface ToolRegistry {
  get(name: string): ToolDefinition | undefined;
  names(): string[];
  /** Checks tool names and arguments; throws a 400 naming the bad call. */
  check(calls: ToolCall[]): ToolCall[];
}

export function createToolRegistry(extra: ToolDefinition[] = []): ToolRegistry {
  const tools = new Map([...BUILTIN_TOOLS, ...extra].map((t) => [t.name, t]));
  return {
    get: (name) => tools.get(name),
    names: () => [...tools.keys()].sort(),
    check(calls) {
      return calls.map((call, i) => {
        const tool = tools.get(call.tool);
        if (!tool) {
          throw invalid(
            `tool_calls.${i}.tool: unknown tool '${call.tool}'; available: ${[...tools.keys()].sort().join(', ')}.`,
            ErrorCode.unknownTool,
          );
        }
        const refs = checkReferences(call.args ?? {});
        if (refs.problem) {
          const field = [`tool_calls.${i}.args`, refs.problem.path].filter(Boolean).join('.');
          throw invalid(`${field}: ${refs.problem.message} (tool ${call.tool})`, ErrorCode.invalidEventReference);
        }
        // A field that is exactly one reference gets its type from the event at dispatch: its own
        // type is checked then; every other field is checked now.
        const underReference = (path: PropertyKey[]) =>
          refs.exact.some((at) => at.every((name, k) => String(path[k]) === name));
        const parsed = tool.args.safeParse(call.args ?? {});
        const issue = parsed.success ? undefined : parsed.error.issues.find((x) => !underReference(x.path));
        if (issue) {
          const field = [`tool_calls.${i}.args`, ...issue.path].join('.');
          throw invalid(`${field}: ${issue.message} (tool ${call.tool})`, ErrorCode.invalidToolArgs);
        }
        return { tool: call.tool, args: (call.args ?? {}) as Record<string, unknown> };
      });
    },
  };
}
