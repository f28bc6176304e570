import { useState } from 'react';
import { post } from '../lib/api.js';
import { Field, Form, Page } from '../lib/ui.js';

/** "Forgot password?": asks for a reset link; the daemon answers the same whether or not the account exists. */
export function ForgotPage() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  return (
    <Page title="Reset your password">
      {sent ? (
        <>
          <p role="status">{sent}</p>
          <p>
            Open the link in the e-mail to choose a new password. On a local daemon, the <a href="#/mail">Mail page</a>{' '}
            shows it.
          </p>
        </>
      ) : (
        <Form
          submit="Send me a reset link"
          onSubmit={async () =>
            setSent((await post<{ message: string }>('/api/auth/forgot-password', { email }, { auth: 'none' })).message)
          }
        >
          <Field label="E-mail" type="email" value={email} onChange={setEmail} autoComplete="username" autoFocus />
        </Form>
      )}
      <p>
        <a href="#/login">Back to log in</a>
      </p>
    </Page>
  );
}
