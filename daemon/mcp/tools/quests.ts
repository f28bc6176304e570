import * as z from 'zod';
import { requireFields } from './require.js';
import { jsonValue, questRecord } from './records-schema.js';
import { defineTool } from './types.js';
import { orMissing } from '../../company/index.js';
import { storableText } from '../../../shared/schemas/storable-text.js';

const status = z.enum(['open', 'in_progress', 'done', 'failed']);

export const questsInput = z.strictObject({
  action: z.enum(['create', 'list', 'get', 'update']),
  id: z.string().min(1).check(storableText).optional().describe('get, update: the quest.'),
  title: z.string().min(1).max(500).optional().describe('create (required), update.'),
  status: status.optional().describe('update: the new status; list: filter.'),
  result: jsonValue
    .optional()
    .describe('update: what the quest produced, any JSON value (a text, or an object such as {"pages":3}).'),
  agent_id: z
    .string()
    .min(1)
    .check(storableText)
    .nullable()
    .optional()
    .describe('create/update: the agent on it; list: filter.'),
  session_id: z
    .string()
    .min(1)
    .check(storableText)
    .nullable()
    .optional()
    .describe('create/update: the session it belongs to; list: filter.'),
});

export const questsOutput = z
  .object({
    ok: z.boolean().optional().describe('create, update: true.'),
    quest: questRecord.optional().describe('create, get, update: the quest.'),
    quests: z.array(questRecord).optional().describe('list: the quests that match.'),
  })
  .loose();

/** Quests of the key's Company: the same services as /api/quests. */
export const questsTool = defineTool({
  name: 'quests',
  title: 'Quests',
  description:
    'Quests (units of work) of the Company. Actions: create {title, agent_id?, session_id?}, list {status?, agent_id?, session_id?}, get {id}, update {id, status?, result?, title?, agent_id?, session_id?}.',
  input: questsInput,
  output: questsOutput,
  // update overwrites fields and can close a quest for good (done and failed are final), and its
  // session:quest_end can fire configured events; create adds a new quest each time.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  run: async (args, ctx) => {
    const quests = (await ctx.services()).quests;
    switch (args.action) {
      case 'create': {
        const a = requireFields(args, 'create', 'title');
        return {
          ok: true,
          quest: await quests.create({
            title: a.title,
            agent_id: a.agent_id ?? null,
            session_id: a.session_id ?? null,
          }),
        };
      }
      case 'list': {
        const filter = {
          status: args.status,
          agent_id: args.agent_id ?? undefined,
          session_id: args.session_id ?? undefined,
        };
        return {
          quests: await quests.list(Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined))),
        };
      }
      case 'get': {
        const a = requireFields(args, 'get', 'id');
        return { quest: orMissing(await quests.get(a.id), 'quest', a.id) };
      }
      case 'update': {
        const a = requireFields(args, 'update', 'id');
        const change = {
          status: a.status,
          result: a.result,
          title: a.title,
          agent_id: a.agent_id,
          session_id: a.session_id,
        };
        return {
          ok: true,
          quest: await quests.update(
            a.id,
            Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined)),
          ),
        };
      }
    }
  },
});
