import { useState } from 'react';
import { del, post } from '../lib/api.js';
import { updateSession } from '../lib/session.js';
import { ActionButton, Field, Form, Section } from '../lib/ui.js';

/**
 * Leaving the selected Company (anyone but the owner, who hands it over first), or deleting it
 * (the owner only). Deleting cannot be undone: the Company's name must be typed back.
 */
export function CompanyLeave(props: { company: { id: string; name: string }; role: string; onGone: () => void }) {
  const { company, role } = props;
  const base = `/api/companies/${encodeURIComponent(company.id)}`;
  const [typed, setTyped] = useState('');
  const gone = () => {
    updateSession({ companyId: null });
    props.onGone();
  };
  if (role !== 'owner')
    return (
      <Section title="Leave">
        <p>You lose access to {company.name} at once; the keys you made stay the Company's.</p>
        <ActionButton
          danger
          label={`Leave ${company.name}`}
          onClick={async () => {
            if (!window.confirm(`Leave ${company.name}? Only an invitation lets you back in.`)) return;
            await post(`${base}/leave`);
            gone();
          }}
        >
          Leave
        </ActionButton>
      </Section>
    );
  return (
    <Section title="Delete Company">
      <p>
        Deletes {company.name} for everyone: its agents, sessions, quests and events, its keys (refused from their next
        request), its members and pending invitations. To leave it instead, make another member the owner first.
      </p>
      <Form
        submit="Delete Company"
        label={`Delete ${company.name}`}
        onSubmit={async () => {
          if (typed.trim() !== company.name) throw new Error(`Type ${company.name} to confirm.`);
          await del(base);
          setTyped('');
          gone();
        }}
      >
        <Field label="Type the Company's name to confirm" value={typed} onChange={setTyped} />
      </Form>
    </Section>
  );
}
