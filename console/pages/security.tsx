import { useState } from 'react';
import { post } from '../lib/api.js';
import { signInMessage } from '../lib/wallet.js';
import { Field, Form, Page, Section } from '../lib/ui.js';
import type { Me } from './me.js';
import { PasskeysSection } from './security-passkeys.js';
import { SessionsSection } from './security-sessions.js';
import { TotpSection } from './security-totp.js';

/** Security: password, TOTP, passkeys, wallet and sessions, each its own section. */
export function SecurityPage({ me, onChange }: { me: Me; onChange: () => void }) {
  return (
    <Page title="Security">
      {me.has_password ? <PasswordSection /> : null}
      <TotpSection />
      <PasskeysSection />
      <WalletSection me={me} onChange={onChange} />
      <SessionsSection />
    </Page>
  );
}

function PasswordSection() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [note, setNote] = useState<string | null>(null);
  return (
    <Section title="Password">
      <Form
        submit="Change password"
        onSubmit={async () => {
          const res = await post<{ revoked_sessions: number }>('/api/auth/change-password', {
            current_password: current,
            new_password: next,
          });
          setCurrent('');
          setNext('');
          setNote(`Password changed; ${res.revoked_sessions} other session(s) ended.`);
        }}
      >
        <Field
          label="Current password"
          type="password"
          value={current}
          onChange={setCurrent}
          autoComplete="current-password"
        />
        <Field
          label="New password"
          type="password"
          value={next}
          onChange={setNext}
          autoComplete="new-password"
          hint="12 to 128 characters."
        />
      </Form>
      {note ? <p role="status">{note}</p> : null}
    </Section>
  );
}

function WalletSection({ me, onChange }: { me: Me; onChange: () => void }) {
  return (
    <Section title="Wallet">
      {me.wallet_address ? (
        <p>
          Linked wallet: <code>{me.wallet_address}</code>
        </p>
      ) : (
        <Form
          submit="Link a wallet"
          onSubmit={async () => {
            const signed = await signInMessage();
            await post('/api/auth/wallet/link', { message: signed.message, signature: signed.signature });
            onChange();
          }}
        >
          <p>
            Sign a Sign-In with Ethereum message with your wallet to log in with it later. Needs a login from the last
            10 minutes.
          </p>
        </Form>
      )}
    </Section>
  );
}
