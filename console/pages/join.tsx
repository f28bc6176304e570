import { useState } from 'react';
import { post } from '../lib/api.js';
import { updateSession } from '../lib/session.js';
import { ActionButton, Field, Page } from '../lib/ui.js';

/**
 * The page an invitation e-mail's link opens (`#/join/<code>`), once logged in with the invited
 * address. Opening it accepts nothing (mail scanners fetch links); the button does.
 */
export function JoinPage({ code: fromUrl }: { code: string | null }) {
  const [code, setCode] = useState(fromUrl ?? '');
  const [joined, setJoined] = useState<string | null>(null);
  if (joined)
    return (
      <Page title="Invitation">
        <p role="status">{joined}</p>
        <p>
          <a href="#/companies">Your Companies</a>
        </p>
      </Page>
    );
  return (
    <Page title="Join a Company">
      <p>Accept the invitation with the account of the address it was sent to.</p>
      <Field label="Invitation code" value={code} onChange={setCode} hint="From the invitation e-mail" />
      <ActionButton
        onClick={async () => {
          const answer = await post<{ company: { id: string; name: string }; role: string }>(
            '/api/invitations/accept',
            { code },
          );
          updateSession({ companyId: answer.company.id });
          setJoined(`You joined ${answer.company.name} as ${answer.role}.`);
        }}
      >
        Accept invitation
      </ActionButton>
    </Page>
  );
}
