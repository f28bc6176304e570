import { useId } from 'react';
import { call, del, get, post } from '../lib/api.js';
import { RecordTable } from '../lib/record-table.js';
import { ActionButton, Section, useAction, useLoad, when, ErrorText } from '../lib/ui.js';
import { CompanyInvitations } from './company-invitations.js';

interface Member {
  user_id: string;
  email: string | null;
  role: string;
  joined_at: string | null;
}

export const ROLE_NAMES = ['owner', 'admin', 'member', 'viewer'] as const;

/**
 * The selected Company's people: every member sees the list; admins and the owner also change
 * roles (a select of the four roles: choosing owner is the owner handing the Company over), remove
 * members and manage invitations. The daemon decides, by role, on every request; the page only
 * leaves out the controls the caller's role cannot use.
 */
export function CompanyMembers(props: { companyId: string; role: string; onChanged: () => void }) {
  const { companyId, role } = props;
  const base = `/api/companies/${encodeURIComponent(companyId)}`;
  const list = useLoad(() => get<{ members: Member[] }>(`${base}/members`), [companyId]);
  const manages = role === 'owner' || role === 'admin';
  const changed = () => {
    list.reload();
    props.onChanged();
  };
  return (
    <>
      <Section title="Members">
        <RecordTable
          error={list.error}
          rows={list.data?.members.map((m) => ({ ...m, id: m.user_id }))}
          columns={[
            { head: 'E-mail', cell: (m) => m.email ?? '—' },
            {
              head: 'Role',
              cell: (m) =>
                manages && m.role !== 'owner' ? (
                  <RoleSelect base={base} member={m} callerRole={role} onChanged={changed} />
                ) : (
                  m.role
                ),
            },
            { head: 'Joined', cell: (m) => when(m.joined_at) },
          ]}
          actions={(m) =>
            manages && m.role !== 'owner' ? (
              <ActionButton
                danger
                label={`Remove ${m.email ?? m.user_id}`}
                onClick={async () => {
                  if (
                    !window.confirm(`Remove ${m.email ?? m.user_id} from the Company? The keys they made keep working.`)
                  )
                    return;
                  await del(`${base}/members/${encodeURIComponent(m.user_id)}`);
                  list.reload();
                }}
              >
                Remove
              </ActionButton>
            ) : null
          }
        />
      </Section>
      {manages ? <CompanyInvitations base={base} /> : null}
    </>
  );
}

/** A member's role as a select: a new role is saved at once; owner (the owner's choice only) hands the Company over, after a confirm. */
function RoleSelect(props: { base: string; member: Member; callerRole: string; onChanged: () => void }) {
  const { base, member, callerRole } = props;
  const id = useId();
  const who = member.email ?? member.user_id;
  const { busy, error, run } = useAction(async (next: string) => {
    if (next === member.role) return;
    if (next === 'owner') {
      if (!window.confirm(`Hand the Company over to ${who}? They become the owner and you an admin.`)) return;
      await post(`${base}/transfer`, { user_id: member.user_id });
    } else {
      await call('PATCH', `${base}/members/${encodeURIComponent(member.user_id)}`, { role: next });
    }
    props.onChanged();
  });
  return (
    <span className="action">
      <label htmlFor={id} className="sr-only">{`Role of ${who}`}</label>
      <select id={id} value={member.role} disabled={busy} onChange={(e) => void run(e.target.value)}>
        {ROLE_NAMES.map((r) => (
          <option key={r} value={r} disabled={r === 'owner' && callerRole !== 'owner'}>
            {r}
          </option>
        ))}
      </select>
      <ErrorText error={error} />
    </span>
  );
}
