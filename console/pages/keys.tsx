import { useState } from 'react';
import { del, get, post } from '../lib/api.js';
import { RecordTable } from '../lib/record-table.js';
import { ActionButton, CopyButton, Page, Section, useLoad, when } from '../lib/ui.js';
import { KeyCreateForm } from './key-create-form.js';

interface KeyRow {
  id: string;
  name: string;
  company: { id: string; name: string };
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  last_used_ip: string | null;
  /** Null: every scope. */
  scopes: string[] | null;
  expires_at: string | null;
  retires_at: string | null;
  replaced_by: string | null;
}
interface KeyList {
  keys: KeyRow[];
  account_key: { id: string; prefix: string; created_at: string; last_used_at: string | null } | null;
}

/** Rotating from the console gives the old key a day beside the new one (the CLI and the API take any overlap). */
const ROTATE_OVERLAP_SECONDS = 24 * 3600;

/** Keys: a new secret is shown once with a copy button; list (scopes, expiry), rotate, revoke; rotate the account key. */
export function KeysPage() {
  const list = useLoad(() => get<KeyList>('/api/keys'));
  const [secret, setSecret] = useState<{ label: string; value: string } | null>(null);
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
            { head: 'Scopes', cell: (k) => (k.scopes ? k.scopes.join(', ') : 'every scope') },
            {
              head: 'Expires',
              cell: (k) =>
                k.retires_at ? `rotated; stops ${when(k.retires_at)}` : k.expires_at ? when(k.expires_at) : 'never',
            },
            { head: 'Created', cell: (k) => when(k.created_at) },
            {
              head: 'Last used',
              cell: (k) =>
                k.last_used_at
                  ? `${when(k.last_used_at)}${k.last_used_ip ? ` from ${k.last_used_ip}` : ''}`
                  : when(null),
            },
          ]}
          actions={(k) => (
            <>
              {k.replaced_by ? null : (
                <ActionButton
                  label={`Rotate key ${k.name}`}
                  onClick={async () => {
                    const made = await post<{ secret_key: string; name: string }>(
                      `/api/keys/${encodeURIComponent(k.id)}/rotate`,
                      { overlap_seconds: ROTATE_OVERLAP_SECONDS },
                    );
                    setSecret({
                      label: `New secret key “${made.name}” (the old one works for 24 hours more)`,
                      value: made.secret_key,
                    });
                    list.reload();
                  }}
                >
                  Rotate
                </ActionButton>
              )}
              <ActionButton
                danger
                label={`Revoke key ${k.name}`}
                onClick={async () => (await del(`/api/keys/${encodeURIComponent(k.id)}`), list.reload())}
              >
                Revoke
              </ActionButton>
            </>
          )}
        />
        <KeyCreateForm
          onCreated={(made) => {
            setSecret({ label: `New secret key “${made.name}”`, value: made.secret_key });
            list.reload();
          }}
        />
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
