import { get, post } from '../lib/api.js';
import { ActionButton, ErrorText, Section, useLoad, when } from '../lib/ui.js';

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
      <ErrorText error={list.error} />
      {list.data ? (
        <table>
          <thead>
            <tr>
              <th scope="col">Started</th>
              <th scope="col">How</th>
              <th scope="col">Client</th>
              <th scope="col">Last seen</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.data.sessions.map((s) => (
              <tr key={s.id}>
                <td>{when(s.created_at)}</td>
                <td>{s.method.join(' + ')}</td>
                <td>
                  {s.user_agent ?? '—'} {s.ip ? `(${s.ip})` : ''}
                </td>
                <td>{when(s.last_seen_at)}</td>
                <td>
                  {s.current ? (
                    <strong>this session</strong>
                  ) : (
                    <ActionButton danger label={`Revoke session ${s.id}`} onClick={async () => (await post('/api/auth/sessions/revoke', { session_id: s.id }), list.reload())}>
                      Revoke
                    </ActionButton>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <ActionButton danger onClick={async () => (await post('/api/auth/sessions/revoke-others'), list.reload())}>
        Revoke all other sessions
      </ActionButton>
    </Section>
  );
}
