import { useState } from 'react';
import { del, get, post } from '../lib/api.js';
import { RecordTable } from '../lib/record-table.js';
import { ActionButton, Field, Form, Section, useLoad, when } from '../lib/ui.js';

interface Member {
  user_id: string;
  email: string | null;
  role: string;
  joined_at: string | null;
}

/**
 * The selected Company's people: every member sees the list; admins and the owner also invite by
 * e-mail and remove members (the daemon decides, by role, on every request).
 */
export function CompanyMembers({ companyId, role }: { companyId: string; role: string }) {
  const base = `/api/companies/${encodeURIComponent(companyId)}`;
  const list = useLoad(() => get<{ members: Member[] }>(`${base}/members`), [companyId]);
  const [email, setEmail] = useState('');
  const [inviteRole, setInviteRole] = useState('member');
  const [sent, setSent] = useState<string | null>(null);
  const manages = role === 'owner' || role === 'admin';
  return (
    <>
      <Section title="Members">
        <RecordTable
          error={list.error}
          rows={list.data?.members.map((m) => ({ ...m, id: m.user_id }))}
          columns={[
            { head: 'E-mail', cell: (m) => m.email ?? '—' },
            { head: 'Role', cell: (m) => m.role },
            { head: 'Joined', cell: (m) => when(m.joined_at) },
          ]}
          actions={(m) =>
            manages && m.role !== 'owner' ? (
              <ActionButton
                danger
                label={`Remove ${m.email ?? m.user_id}`}
                onClick={async () => {
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
      {manages ? (
        <Section title="Invite">
          {sent ? <p role="status">{sent}</p> : null}
          <Form
            submit="Send invitation"
            onSubmit={async () => {
              await post(`${base}/invitations`, { email, role: inviteRole });
              setSent(`An invitation went to ${email} by e-mail; it is valid for 7 days.`);
              setEmail('');
            }}
          >
            <Field label="E-mail" type="email" value={email} onChange={setEmail} />
            <Field label="Role" value={inviteRole} onChange={setInviteRole} hint="admin, member or viewer" />
          </Form>
        </Section>
      ) : null}
    </>
  );
}
