import { z } from 'zod';
import { presentConfigured } from '../../events/emitter-input.js';
import { ErrorCode } from '../../../shared/errors.js';
import { notFound } from '../../http/api-error.js';
import { requireFields } from './require.js';
import { defineTool } from './types.js';

const id = z.string().min(1);
const toolCall = z.object({
  tool: z.string().min(1).describe('A runtime tool: quests.create, quests.update, message_to, sessions.create, …'),
  args: z.record(z.string(), z.unknown()).default({}),
});

const input = z.object({
  action: z.enum(['create', 'list', 'enable', 'disable', 'delete', 'trigger', 'trace']).describe('What to do (spec §4.7).'),
  id: id.optional().describe('enable, disable, delete: the configured event. trigger: fire this configured event now (instead of `type`).'),
  type: z.string().min(1).max(200).optional().describe('create: the pattern, e.g. `quest:completed` or `schedule:*/5 * * * *`. trigger: the event type to emit. list: same as event_type.'),
  tool_calls: z.array(toolCall).max(50).optional().describe('create: the tool calls to run when the pattern matches (none: a marker).'),
  enabled: z.boolean().optional().describe('create: start enabled (default true).'),
  timezone: z.string().min(1).max(100).optional().describe('create: IANA zone of a schedule: pattern (default UTC).'),
  matcher: z.record(z.string(), z.unknown()).optional().describe('create: a detector matcher (exact, predicated or window).'),
  agent_id: id.optional().describe('create/trigger: scope or subject; list: filter.'),
  session_id: id.optional(),
  quest_id: id.optional(),
  content: z.unknown().optional().describe('trigger: the payload of the emitted event.'),
  event_type: z.string().optional().describe('list: only events of this type.'),
  since: z.string().optional().describe('list: ISO time, events created at or after it.'),
  since_id: z.string().optional().describe('list: events strictly after this id (the previous page\'s next_since_id).'),
  limit: z.number().int().min(1).max(1000).optional().describe('list: page size.'),
  configured: z.boolean().optional().describe('list: true lists the configured events instead of the log.'),
  event_id: id.optional().describe('trace: the event whose causation tree to show.'),
});

/** The events bus, one action at a time: the same services as the /api/events routes, so the same answers. */
export const eventsTool = defineTool({
  name: 'events',
  title: 'Events',
  description:
    'The Company\'s events causation bus. Actions: create (a configured event: pattern + tool_calls), list (the event log, or configured=true for configured events), enable, disable, delete (by id), trigger (emit an event by type, or fire a configured event by id), trace (the causation tree of an event_id).',
  input,
  run: async (args, ctx) => {
    const events = (await ctx.services()).events;
    switch (args.action) {
      case 'create': {
        const a = requireFields(args, 'create', 'type');
        const event = await events.create({
          type: a.type,
          tool_calls: a.tool_calls ?? [],
          agent_id: a.agent_id ?? null,
          session_id: a.session_id ?? null,
          quest_id: a.quest_id ?? null,
          enabled: a.enabled,
          timezone: a.timezone ?? null,
          matcher: (a.matcher as never) ?? null,
        });
        return { ok: true, event: presentConfigured(event, ctx.now()) };
      }
      case 'list': {
        const filter = { event_type: args.event_type ?? args.type, agent_id: args.agent_id, session_id: args.session_id, quest_id: args.quest_id };
        if (args.configured) return { events: (await events.listConfigured(dropUndefined(filter))).map((c) => presentConfigured(c, ctx.now())) };
        // As GET /api/events: the cursor to follow from, taken before the query so nothing is missed.
        const lastSeen = (await events.lastId?.()) ?? null;
        const page = await events.list(dropUndefined({ ...filter, since: args.since, since_id: args.since_id, limit: args.limit }));
        return { ...page, cursor: page.events.at(-1)?.id ?? args.since_id ?? lastSeen };
      }
      case 'enable':
      case 'disable': {
        const a = requireFields(args, args.action, 'id');
        return { ok: true, event: presentConfigured(await events.setEnabled(a.id, args.action === 'enable'), ctx.now()) };
      }
      case 'delete': {
        const a = requireFields(args, 'delete', 'id');
        await events.delete(a.id);
        return { ok: true, id: a.id, deleted: true };
      }
      case 'trigger': {
        if (args.id) return { ok: true, ...(await events.fire(args.id, { content: args.content })) };
        const a = requireFields(args, 'trigger', 'type');
        const emitted = await events.emit({ type: a.type, agent_id: a.agent_id, session_id: a.session_id, quest_id: a.quest_id, content: a.content });
        return { ok: true, ...emitted };
      }
      case 'trace': {
        const a = requireFields(args, 'trace', 'event_id');
        const node = await events.trace(a.event_id);
        if (!node) throw notFound(`No event ${a.event_id} in this Company's log.`, ErrorCode.eventNotFound);
        return { ...node };
      }
    }
  },
});

function dropUndefined<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
