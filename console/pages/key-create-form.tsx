import { useState } from 'react';
import { post } from '../lib/api.js';
import { Field, Form, useLoad } from '../lib/ui.js';
import { loadCompanies } from './companies.js';

/** "events:read, events:trigger" → the list the API takes; blank: every scope. */
const scopeList = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);

/** Creating a secret key: its Company, its name, and optionally its scopes and lifetime in days. */
export function KeyCreateForm(props: { onCreated: (made: { secret_key: string; name: string }) => void }) {
  const companies = useLoad(loadCompanies);
  const [root, setRoot] = useState('');
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState('');
  const [days, setDays] = useState('');
  const chosenRoot = root || companies.data?.companies[0]?.id || '';
  return (
    <Form
      submit="Create secret key"
      onSubmit={async () => {
        const access = {
          ...(scopeList(scopes).length > 0 ? { scopes: scopeList(scopes) } : {}),
          ...(days.trim() ? { expires_in: Math.round(Number(days) * 86_400) } : {}),
        };
        const made = await post<{ secret_key: string; name: string }>('/api/keys', {
          root: chosenRoot,
          name,
          ...access,
        });
        setName('');
        setScopes('');
        setDays('');
        props.onCreated(made);
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
      <Field
        label="Scopes"
        value={scopes}
        onChange={setScopes}
        required={false}
        hint="Optional, e.g. events:read, events:trigger. Blank: every scope."
      />
      <Field
        label="Expires in (days)"
        value={days}
        onChange={setDays}
        required={false}
        hint="Optional. Blank: the key does not expire."
      />
    </Form>
  );
}
