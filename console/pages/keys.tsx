import { useState } from 'react';
import { del, get, post } from '../lib/api.js';
import { RecordTable } from '../lib/record-table.js';
import { ActionButton, CopyButton, Field, Form, Page, Section, useLoad, when } from '../lib/ui.js';
import { loadCompanies } from './companies.js';

interface KeyRow {
  id: string;
  name: string;
  company: { id: string; name: string };
  prefix: string;
  created_at: string;
  last_used_at: string | null;
}
interface KeyList {
  keys: KeyRow[];
  account_key: { id: string; prefix: string; created_at: string; last_used_at: string | null } | null;
}

/** Keys: a new secret is shown once with a copy button; list, revoke; rotate the account key. */
export function KeysPage() {
  const list = useLoad(() => get<KeyList>('/api/keys'));
  const companies = useLoad(loadCompanies);
  const [root, setRoot] = useState('');
  const [name, setName] = useState('');
  const [secret, setSecret] = useState<{ label: string; value: string } | null>(null);
  const chosenRoot = root || companies.data?.companies[0]?.id || '';
  return (
    <Page title="Keys">
      {secret ? (
        <section className="card secret-box" aria-label="New secret">
          <h2>{secret.label}</h2>
          <p role="status">Save it now: it is shown only this once and cannot be recovered.</p>
          <p>
            <code className="secret">{secret.value}</code> <CopyButton text={secret.value} />
          </p>
          <button type="button" className="secondary" onClick={() => setSecret(null)}>
            I saved it
          </button>
        </section>
      ) : null}
      <Section title="Secret keys">
        <RecordTable
          error={list.error}
          rows={list.data?.keys}
          empty="No secret keys."
          columns={[
            { head: 'Name', cell: (k) => k.name },
            { head: 'Company', cell: (k) => k.company.name },
            { head: 'Key', cell: (k) => <code>{k.prefix}</code> },
            { head: 'Created', cell: (k) => when(k.created_at) },
            { head: 'Last used', cell: (k) => when(k.last_used_at) },
          ]}
          actions={(k) => (
            <ActionButton
              danger
              label={`Revoke key ${k.name}`}
              onClick={async () => (await del(`/api/keys/${encodeURIComponent(k.id)}`), list.reload())}
            >
              Revoke
            </ActionButton>
          )}
        />
        <Form
          submit="Create secret key"
          onSubmit={async () => {
            const made = await post<{ secret_key: string; name: string }>('/api/keys', { root: chosenRoot, name });
            setSecret({ label: `New secret key “${made.name}”`, value: made.secret_key });
            setName('');
            list.reload();
          }}
        >
          <div className="field">
            <label htmlFor="key-root">Company</label>
            <select id="key-root" value={chosenRoot} onChange={(e) => setRoot(e.target.value)} required>
              {(companies.data?.companies ?? []).map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </div>
          <Field label="Key name" value={name} onChange={setName} hint="A label, e.g. laptop or ci." />
        </Form>
      </Section>
      <Section title="Account key">
        <p>
          {list.data?.account_key ? (
            <>
              Current: <code>{list.data.account_key.prefix}</code>, created {when(list.data.account_key.created_at)}.
            </>
          ) : (
            'No account key yet.'
          )}
        </p>
        <ActionButton
          onClick={async () => {
            const made = await post<{ api_key: string; rotated: boolean }>('/api/account/api-key');
            setSecret({
              label: made.rotated ? 'New account key (the old one stopped working)' : 'New account key',
              value: made.api_key,
            });
            list.reload();
          }}
        >
          {list.data?.account_key ? 'Rotate account key' : 'Create account key'}
        </ActionButton>
      </Section>
    </Page>
  );
}
