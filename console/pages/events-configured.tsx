import { useState } from 'react';
import { del, get, post } from '../lib/api.js';
import { RecordTable } from '../lib/record-table.js';
import { ActionButton, Section, useLoad } from '../lib/ui.js';
import { ConfiguredForm } from './events-configured-form.js';
import type { Configured } from './configured-row.js';

/** What the status column says: an active rule with no tool calls is a marker that fires nothing. */
export function describeStatus(c: Configured): string {
  if (c.status === 'armed') return `armed: never fires (${c.armed_reason ?? 'nothing emits it'})`;
  if (c.tool_calls.length === 0) return `${c.status === 'paused' ? 'paused' : 'on'}, no tool calls: fires nothing`;
  return c.status;
}

/** A run in the schedule's own zone (UTC without one), its zone named: a bare local time reads wrong across zones. */
const inZone = (iso: string, zone: string | null | undefined) =>
  new Date(iso).toLocaleString(undefined, { timeZone: zone ?? 'UTC', timeZoneName: 'short' });

const scopeOf = (c: Configured) =>
  [c.agent_id && `agent ${c.agent_id}`, c.session_id && `session ${c.session_id}`, c.quest_id && `quest ${c.quest_id}`]
    .filter(Boolean)
    .join(', ') || 'every event of the pattern';

/** Configured events (details, enable/disable, edit, delete, create), or only the schedules with their next runs. */
export function ConfiguredEvents({ scheduled }: { scheduled: boolean }) {
  const [editing, setEditing] = useState<Configured | null>(null);
  const list = useLoad(
    () =>
      get<{ events: Configured[] }>(`/api/events?${scheduled ? 'scheduled=true' : 'configured=true'}`, {
        company: true,
      }),
    [scheduled],
  );
  const title = scheduled ? 'Schedules' : 'Configured events';
  return (
    <>
      <Section title={title}>
        <RecordTable
          error={list.error}
          rows={list.data?.events}
          empty={scheduled ? 'No schedules. Create them with svc events create.' : 'No configured events.'}
          columns={[
            { head: 'Id', cell: (c) => <code>{c.id}</code> },
            {
              head: 'Pattern',
              cell: (c) => (
                <>
                  <code>{c.type}</code>
                  {c.timezone ? ` (${c.timezone})` : scheduled ? ' (UTC)' : ''}
                </>
              ),
            },
            !scheduled && { head: 'Scope', cell: scopeOf },
            !scheduled && {
              head: 'Matcher',
              cell: (c) => (c.matcher ? <code>{JSON.stringify(c.matcher)}</code> : 'none'),
            },
            {
              head: 'Tool calls',
              cell: (c) =>
                c.tool_calls.length ? (
                  <ul className="plain">
                    {c.tool_calls.map((t, i) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: a rule's calls are ordered and fixed; position is their identity
                      <li key={i}>
                        {t.tool} <code>{JSON.stringify(t.args ?? {})}</code>
                      </li>
                    ))}
                  </ul>
                ) : (
                  'none'
                ),
            },
            { head: 'Status', cell: describeStatus },
            scheduled && {
              head: 'Next runs',
              cell: (c) => (
                <ul className="plain">
                  {(c.next_runs ?? []).map((r) => (
                    <li key={r}>{inZone(r, c.timezone)}</li>
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
              <>
                <ActionButton
                  label={`${label} ${c.type}`}
                  onClick={async () => (
                    await post(`/api/events/${encodeURIComponent(c.id)}/${verb}`, {}, { company: true }), list.reload()
                  )}
                >
                  {label}
                </ActionButton>
                <button
                  type="button"
                  className="secondary"
                  aria-label={`Edit ${c.id}`}
                  onClick={() => {
                    setEditing(c);
                    // The form opens below the list: bring it into view, its first field focused.
                    requestAnimationFrame(() => {
                      const form = document.querySelector<HTMLElement>('[aria-label="Edit configured event"]');
                      form?.scrollIntoView({ block: 'nearest' });
                      form?.querySelector<HTMLElement>('select, input')?.focus();
                    });
                  }}
                >
                  Edit
                </button>
                <ActionButton
                  danger
                  label={`Delete ${c.id}`}
                  onClick={async () => {
                    if (!window.confirm(`Delete ${c.id} (${c.type})? It stops reacting at once.`)) return;
                    await del(`/api/events/${encodeURIComponent(c.id)}`, { company: true });
                    list.reload();
                  }}
                >
                  Delete
                </ActionButton>
              </>
            );
          }}
        />
      </Section>
      {editing ? (
        <Section title={`Edit ${editing.id}`}>
          <ConfiguredForm key={editing.id} editing={editing} onSaved={list.reload} onCancel={() => setEditing(null)} />
        </Section>
      ) : scheduled ? null : (
        <Section title="New configured event">
          <ConfiguredForm onSaved={list.reload} />
        </Section>
      )}
    </>
  );
}
