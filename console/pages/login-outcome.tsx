import { useState } from 'react';
import { post } from '../lib/api.js';
import { updateSession } from '../lib/session.js';
import { Field, Form } from '../lib/ui.js';

/** What every first-factor login answers (docs/auth.md): a session, or the TOTP step, or a pending verification. */
export interface LoginOutcome {
  ok: boolean;
  token?: string;
  totp_required?: boolean;
  partial_token?: string;
  pending_verification?: boolean;
}

/** The TOTP step after a first factor: the 6-digit code (or a recovery code) with the partial token. */
export function TotpStep({ partialToken, onDone }: { partialToken: string; onDone: (token: string) => void }) {
  const [code, setCode] = useState('');
  return (
    <Form
      submit="Verify"
      label="Two-factor code"
      onSubmit={async () => {
        const res = await post<LoginOutcome>(
          '/api/auth/totp/login',
          { partial_token: partialToken, code },
          { auth: 'none' },
        );
        onDone(res.token!);
      }}
    >
      <p>This account has two-factor authentication. Enter the code from your authenticator app, or a recovery code.</p>
      <Field
        label="Authenticator code"
        value={code}
        onChange={setCode}
        autoComplete="one-time-code"
        inputMode="numeric"
        autoFocus
      />
    </Form>
  );
}

/** Holds the login's outcome: shows the TOTP step when due, else keeps the token and moves on. */
export function useLoginOutcome(onLoggedIn: () => void) {
  const [partial, setPartial] = useState<string | null>(null);
  const accept = (outcome: LoginOutcome) => {
    if (outcome.totp_required && outcome.partial_token) return setPartial(outcome.partial_token);
    if (!outcome.token) throw new Error('The daemon answered without a session.');
    updateSession({ token: outcome.token });
    onLoggedIn();
  };
  const step = partial ? (
    <TotpStep
      partialToken={partial}
      onDone={(token) => {
        setPartial(null);
        updateSession({ token });
        onLoggedIn();
      }}
    />
  ) : null;
  return { accept, step };
}
