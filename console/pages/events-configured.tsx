import { get, post } from '../lib/api.js';
import { RecordTable } from '../lib/record-table.js';
import { ActionButton, Section, useLoad, when } from '../lib/ui.js';

interface Configured {
  id: string;
  type: string;
  status: 'active' | 'paused' | 'armed';
  enabled?: boolean;
  tool_calls: { tool: string }[];
  next_runs?: string[];
  timezone?: string | null;
}

/** Configured events (enable/disable), or only the schedules with their next runs. */
export function ConfiguredEvents({ scheduled }: { scheduled: boolean }) {
  const list = useLoad(
    () =>
      get<{ events: Configured[] }>(`/api/events?${scheduled ? 'scheduled=true' : 'configured=true'}`, {
        company: true,
      }),
    [scheduled],
  );
  const title = scheduled ? 'Schedules' : 'Configured events';
  return (
    <Section title={title}>
      <RecordTable
        error={list.error}
        rows={list.data?.events}
        empty={`${scheduled ? 'No schedules.' : 'No configured events.'} Create them with svc events create.`}
        columns={[
          {
            head: 'Pattern',
            cell: (c) => (
              <>
                <code>{c.type}</code>
                {c.timezone ? ` (${c.timezone})` : ''}
              </>
            ),
          },
          { head: 'Tools', cell: (c) => c.tool_calls.map((t) => t.tool).join(', ') },
          { head: 'Status', cell: (c) => c.status },
          scheduled && {
            head: 'Next runs',
            cell: (c) => (
              <ul className="plain">
                {(c.next_runs ?? []).map((r) => (
                  <li key={r}>{when(r)}</li>
                ))}
              </ul>
            ),
          },
        ]}
        actions={(c) => {
          // A paused event offers Enable; an active or armed one offers Disable.
          const verb = c.status === 'paused' ? 'enable' : 'disable';
          const label = verb === 'enable' ? 'Enable' : 'Disable';
          return (
            <ActionButton
              label={`${label} ${c.type}`}
              onClick={async () => (
                await post(`/api/events/${encodeURIComponent(c.id)}/${verb}`, {}, { company: true }), list.reload()
              )}
            >
              {label}
            </ActionButton>
          );
        }}
      />
    </Section>
  );
}
