import { get, post } from '../lib/api.js';
import { ActionButton, ErrorText, Section, useLoad, when } from '../lib/ui.js';

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
  const list = useLoad(() => get<{ events: Configured[] }>(`/api/events?${scheduled ? 'scheduled=true' : 'configured=true'}`, { company: true }), [scheduled]);
  const title = scheduled ? 'Schedules' : 'Configured events';
  return (
    <Section title={title}>
      <ErrorText error={list.error} />
      {list.data?.events.length ? (
        <table>
          <thead>
            <tr>
              <th scope="col">Pattern</th>
              <th scope="col">Tools</th>
              <th scope="col">Status</th>
              {scheduled ? <th scope="col">Next runs</th> : null}
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.data.events.map((c) => (
              <tr key={c.id}>
                <td>
                  <code>{c.type}</code>
                  {c.timezone ? ` (${c.timezone})` : ''}
                </td>
                <td>{c.tool_calls.map((t) => t.tool).join(', ')}</td>
                <td>{c.status}</td>
                {scheduled ? (
                  <td>
                    <ul className="plain">
                      {(c.next_runs ?? []).map((r) => (
                        <li key={r}>{when(r)}</li>
                      ))}
                    </ul>
                  </td>
                ) : null}
                <td>
                  {c.status === 'paused' ? (
                    <ActionButton label={`Enable ${c.type}`} onClick={async () => (await post(`/api/events/${encodeURIComponent(c.id)}/enable`, {}, { company: true }), list.reload())}>
                      Enable
                    </ActionButton>
                  ) : (
                    <ActionButton label={`Disable ${c.type}`} onClick={async () => (await post(`/api/events/${encodeURIComponent(c.id)}/disable`, {}, { company: true }), list.reload())}>
                      Disable
                    </ActionButton>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : list.data ? (
        <p>{scheduled ? 'No schedules.' : 'No configured events.'} Create them with svc events create.</p>
      ) : null}
    </Section>
  );
}
