import * as z from 'zod';
import { requireFields } from './require.js';
import { questRecord, sessionRecord } from './records-schema.js';
import { defineTool } from './types.js';
import { orMissing } from '../../company/index.js';
import { storableText } from '../../../shared/schemas/storable-text.js';

export const sessionsInput = z.strictObject({
  action: z.enum(['list', 'get', 'create', 'stop', 'compact']),
  id: z.string().min(1).check(storableText).optional().describe('get, stop, compact: the session.'),
  role: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .describe("compact: the role (or agent id) to hand the transcript to; default: the daemon's compaction role."),
  agent_id: z.string().min(1).check(storableText).optional().describe('create: the agent (required); list: filter.'),
  gateway_channel_id: z.string().min(1).max(200).optional().describe('create: the channel the session talks on.'),
  context_budget: z
    .number()
    .int()
    .min(1)
    .nullable()
    .optional()
    .describe('create: characters of transcript before context:budget:exceeded (default 100000; null: none).'),
  status: z.enum(['active', 'stopped']).optional().describe('list: filter.'),
});

export const sessionsOutput = z
  .object({
    ok: z.boolean().optional().describe('create, stop, compact: true.'),
    session: sessionRecord.optional().describe('get, create, stop, compact: the session.'),
    sessions: z.array(sessionRecord).optional().describe('list: the sessions that match.'),
    started: z
      .boolean()
      .optional()
      .describe('compact: false when a compaction of this session was already pending (nothing new started).'),
    quest: questRecord.nullable().optional().describe('compact: the summarising quest handed to the role.'),
  })
  .loose();

/** Agent sessions of the key's Company: the same services as /api/sessions. */
export const sessionsTool = defineTool({
  name: 'sessions',
  title: 'Agent sessions',
  description:
    'Agent sessions of the Company. Actions: list {agent_id?, status?}, get {id}, create {agent_id, gateway_channel_id?, context_budget?}, stop {id}, compact {id, role?} (hands the transcript to a role as a summarising quest; the session continues from the summary the quest returns as its result).',
  input: sessionsInput,
  output: sessionsOutput,
  // stop ends a session for good; create and compact emit events that can fire configured events.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  run: async (args, ctx) => {
    const sessions = (await ctx.services()).sessions;
    switch (args.action) {
      case 'list': {
        const filter = { agent_id: args.agent_id, status: args.status };
        return {
          sessions: await sessions.list(Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined))),
        };
      }
      case 'get': {
        const a = requireFields(args, 'get', 'id');
        return { session: orMissing(await sessions.get(a.id), 'session', a.id) };
      }
      case 'create': {
        const a = requireFields(args, 'create', 'agent_id');
        const input = {
          agent_id: a.agent_id,
          gateway_channel_id: a.gateway_channel_id ?? null,
          ...(a.context_budget !== undefined ? { context_budget: a.context_budget } : {}),
        };
        return { ok: true, session: await sessions.create(input) };
      }
      case 'compact': {
        const a = requireFields(args, 'compact', 'id');
        return { ok: true, ...(await sessions.compact!(a.id, { role: a.role })) };
      }
      case 'stop': {
        const a = requireFields(args, 'stop', 'id');
        return { ok: true, session: await sessions.stop(a.id) };
      }
    }
  },
});
