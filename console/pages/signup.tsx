import { useState } from 'react';
import { post } from '../lib/api.js';
import { updateSession } from '../lib/session.js';
import { ActionButton, Field, Form, Page } from '../lib/ui.js';

/**
 * Sign-up with an invite code, then the e-mailed code. The verify step needs only the e-mail and
 * the code, so the page never relies on the signup answer's token: an address that has an account
 * already gets the same page (and its owner an e-mail), as the API intends.
 */
export function SignupPage() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [invite, setInvite] = useState('');
  const [sent, setSent] = useState(false);
  if (sent) return <VerifyPage email={email} />;
  return (
    <Page title="Sign up">
      <Form
        submit="Create account"
        label="Sign up"
        onSubmit={async () => {
          await post('/api/auth/signup', { email, password, invite_code: invite }, { auth: 'none' });
          setSent(true);
        }}
      >
        <Field label="E-mail" type="email" value={email} onChange={setEmail} autoComplete="username" autoFocus />
        <Field
          label="Password"
          type="password"
          value={password}
          onChange={setPassword}
          autoComplete="new-password"
          hint="12 to 128 characters."
        />
        <Field
          label="Invite code"
          value={invite}
          onChange={setInvite}
          hint="From the daemon's banner, or svc admin invite."
        />
      </Form>
      <p>
        Have an account? <a href="#/login">Log in</a>.
      </p>
    </Page>
  );
}

/** The verification step: the code e-mailed at sign-up turns the account (and this session) into a full one. */
export function VerifyPage({ email }: { email: string }) {
  const [code, setCode] = useState('');
  const [note, setNote] = useState<string | null>(null);
  return (
    <Page title="Verify your e-mail">
      <Form
        submit="Verify"
        label="Verify your e-mail"
        onSubmit={async () =>
          updateSession({
            token: (await post<{ token: string }>('/api/auth/verify', { email, code }, { auth: 'none' })).token,
          })
        }
      >
        <p>
          A 6-digit code went to {email}. On a local daemon, the <a href="#/mail">Mail page</a> shows it.
        </p>
        <Field
          label="Verification code"
          value={code}
          onChange={setCode}
          autoComplete="one-time-code"
          inputMode="numeric"
          autoFocus
        />
      </Form>
      <ActionButton
        onClick={async () =>
          setNote((await post<{ message: string }>('/api/auth/resend-code', { email }, { auth: 'none' })).message)
        }
      >
        Send a new code
      </ActionButton>
      {note ? <p role="status">{note}</p> : null}
    </Page>
  );
}
