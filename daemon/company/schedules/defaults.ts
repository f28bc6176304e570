import type { ConfiguredEvent, EventsService, NewConfiguredEvent } from '../company-services.js';

/**
 * The scheduled events every new Company gets (spec §3.5): useful routines, all created PAUSED so a
 * new Company never starts doing work on its own; `svc events enable <id>` turns one on. Each
 * creates a quest (and the weekly one also messages the `lead` role), so an enabled default is
 * visible where work is tracked. Times are UTC unless the user recreates one with a timezone.
 */
export const DEFAULT_SCHEDULES: readonly NewConfiguredEvent[] = [
  {
    // Weekday mornings: a digest of what happened since the last one.
    type: 'schedule:0 8 * * 1-5',
    tool_calls: [
      {
        tool: 'quests.create',
        args: { title: 'Daily digest: summarise yesterday’s events, finished quests and open questions' },
      },
    ],
    enabled: false,
  },
  {
    // Friday afternoon: a weekly review, routed to whoever holds the lead role.
    type: 'schedule:0 16 * * 5',
    tool_calls: [
      { tool: 'quests.create', args: { title: 'Weekly review: what shipped, what is stuck, what to drop' } },
      { tool: 'message_to', args: { to: 'lead', text: 'Weekly review is due: see the new quest “Weekly review”.' } },
    ],
    enabled: false,
  },
  {
    // Hourly: a sweep for quests that have been in progress too long.
    type: 'schedule:@hourly',
    tool_calls: [
      {
        tool: 'quests.create',
        args: { title: 'Stale-quest check: list quests in progress for over 24 hours and nudge their agents' },
      },
    ],
    enabled: false,
  },
  {
    // Monday at midnight: tidy-up of finished work.
    type: 'schedule:0 0 * * 1',
    tool_calls: [
      { tool: 'quests.create', args: { title: 'Weekly cleanup: archive done quests and stop idle sessions' } },
    ],
    enabled: false,
  },
];

/** Creates the default schedules in a new Company's runtime (call once, when the Company is created). */
export async function seedDefaultSchedules(events: Pick<EventsService, 'create'>): Promise<ConfiguredEvent[]> {
  const created: ConfiguredEvent[] = [];
  // One after the other: ids then sort in this order, and the listing reads like the list above.
  for (const schedule of DEFAULT_SCHEDULES)
    created.push(await events.create({ ...schedule, tool_calls: structuredClone(schedule.tool_calls) }));
  return created;
}
