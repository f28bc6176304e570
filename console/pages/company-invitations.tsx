import { useId, useState } from 'react';
import { del, get, post } from '../lib/api.js';
import { RecordTable } from '../lib/record-table.js';
import { ActionButton, Field, Form, Section, useLoad, when } from '../lib/ui.js';

interface Invitation {
  id: string;
  email: string;
  role: string;
  status: 'pending' | 'expired';
  expires_at: string;
}

/** Inviting by e-mail with a role, and the pending invitations with a revoke each (admins and the owner). */
export function CompanyInvitations({ base }: { base: string }) {
  const list = useLoad(() => get<{ invitations: Invitation[] }>(`${base}/invitations`), [base]);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('member');
  const [sent, setSent] = useState<string | null>(null);
  const roleId = useId();
  return (
    <>
      <Section title="Invite">
        {sent ? <p role="status">{sent}</p> : null}
        <Form
          submit="Send invitation"
          onSubmit={async () => {
            await post(`${base}/invitations`, { email, role });
            setSent(`An invitation went to ${email} by e-mail; it is valid for 7 days.`);
            setEmail('');
            list.reload();
          }}
        >
          <Field label="E-mail" type="email" value={email} onChange={setEmail} />
          <div className="field">
            <label htmlFor={roleId}>Role</label>
            <select id={roleId} value={role} onChange={(e) => setRole(e.target.value)}>
              <option value="admin">admin</option>
              <option value="member">member</option>
              <option value="viewer">viewer</option>
            </select>
          </div>
        </Form>
      </Section>
      <Section title="Pending invitations">
        <RecordTable
          error={list.error}
          rows={list.data?.invitations}
          empty="No pending invitation."
          columns={[
            { head: 'E-mail', cell: (i) => i.email },
            { head: 'Role', cell: (i) => i.role },
            { head: 'Status', cell: (i) => i.status },
            { head: 'Expires', cell: (i) => when(i.expires_at) },
          ]}
          actions={(i) => (
            <ActionButton
              danger
              label={`Revoke the invitation to ${i.email}`}
              onClick={async () => {
                if (!window.confirm(`Revoke the invitation to ${i.email}? Its code stops working.`)) return;
                await del(`${base}/invitations/${encodeURIComponent(i.id)}`);
                list.reload();
              }}
            >
              Revoke
            </ActionButton>
          )}
        />
      </Section>
    </>
  );
}
