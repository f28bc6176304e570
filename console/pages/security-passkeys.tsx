import { useState } from 'react';
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import { del, get, post } from '../lib/api.js';
import { RecordTable } from '../lib/record-table.js';
import { ActionButton, Field, Form, Section, useLoad, when } from '../lib/ui.js';

interface Passkey {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

/** Passkeys: list, add (the browser's WebAuthn ceremony), remove. */
export function PasskeysSection() {
  const list = useLoad(() => get<{ passkeys: Passkey[] }>('/api/auth/passkeys'));
  const [name, setName] = useState('');
  return (
    <Section title="Passkeys">
      <RecordTable
        error={list.error}
        rows={list.data?.passkeys}
        empty="No passkeys yet."
        columns={[
          { head: 'Name', cell: (p) => p.name },
          { head: 'Added', cell: (p) => when(p.created_at) },
          { head: 'Last used', cell: (p) => when(p.last_used_at) },
        ]}
        actions={(p) => (
          <ActionButton
            danger
            label={`Remove passkey ${p.name}`}
            onClick={async () => (await del(`/api/auth/passkeys/${encodeURIComponent(p.id)}`), list.reload())}
          >
            Remove
          </ActionButton>
        )}
      />
      <Form
        submit="Add a passkey"
        onSubmit={async () => {
          const label = name.trim() || 'passkey';
          const optionsJSON = await post<PublicKeyCredentialCreationOptionsJSON>('/api/auth/passkey/register-begin', {
            name: label,
          });
          const { startRegistration } = await import('@simplewebauthn/browser');
          const response = await startRegistration({ optionsJSON });
          await post('/api/auth/passkey/register-finish', { response, name: label });
          setName('');
          list.reload();
        }}
      >
        <Field
          label="Passkey name"
          value={name}
          onChange={setName}
          required={false}
          hint="Needs a login from the last 10 minutes, and this console opened at http://localhost:<port>."
        />
      </Form>
    </Section>
  );
}
