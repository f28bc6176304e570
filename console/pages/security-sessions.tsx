import { get, post } from '../lib/api.js';
import { RecordTable } from '../lib/record-table.js';
import { ActionButton, Section, useLoad, when } from '../lib/ui.js';

interface SessionRow {
  id: string;
  created_at: string;
  last_seen_at: string;
  method: string[];
  user_agent: string | null;
  ip: string | null;
  current: boolean;
}

/** Sessions: every live login of the account, with how it began; revoke one, or all but this one. */
export function SessionsSection() {
  const list = useLoad(() => get<{ sessions: SessionRow[] }>('/api/auth/sessions'));
  return (
    <Section title="Sessions">
      {/* No `empty` sentence: the list always holds this session, so the table always shows. */}
      <RecordTable
        error={list.error}
        rows={list.data?.sessions}
        columns={[
          { head: 'Started', cell: (s) => when(s.created_at) },
          { head: 'How', cell: (s) => s.method.join(' + ') },
          {
            head: 'Client',
            cell: (s) => (
              <>
                {s.user_agent ?? '—'} {s.ip ? `(${s.ip})` : ''}
              </>
            ),
          },
          { head: 'Last seen', cell: (s) => when(s.last_seen_at) },
        ]}
        actions={(s) =>
          s.current ? (
            <strong>this session</strong>
          ) : (
            <ActionButton
              danger
              label={`Revoke session ${s.id}`}
              onClick={async () => (await post('/api/auth/sessions/revoke', { session_id: s.id }), list.reload())}
            >
              Revoke
            </ActionButton>
          )
        }
      />
      <ActionButton danger onClick={async () => (await post('/api/auth/sessions/revoke-others'), list.reload())}>
        Revoke all other sessions
      </ActionButton>
    </Section>
  );
}
