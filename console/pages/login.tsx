import { useState } from 'react';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { post } from '../lib/api.js';
import { signInMessage, walletProvider } from '../lib/wallet.js';
import { ActionButton, Field, Form, Page } from '../lib/ui.js';
import { useLoginOutcome, type LoginOutcome } from './login-outcome.js';

const METHODS = [
  ['password', 'Password'],
  ['code', 'E-mailed code'],
  ['passkey', 'Passkey'],
  ['wallet', 'Wallet'],
] as const;
type Method = (typeof METHODS)[number][0];

/** Log in with every factor the daemon has; `onLoggedIn` runs once a full session is held. */
export function LoginPage({ onLoggedIn, title = 'Log in' }: { onLoggedIn: () => void; title?: string }) {
  const [method, setMethod] = useState<Method>('password');
  const { accept, step } = useLoginOutcome(onLoggedIn);
  return (
    <Page title={title}>
      {step ?? (
        <>
          <fieldset className="tabs" aria-label="Way to log in">
            {METHODS.map(([m, label]) => (
              <button
                key={m}
                type="button"
                className={m === method ? 'tab on' : 'tab'}
                aria-pressed={m === method}
                onClick={() => setMethod(m)}
              >
                {label}
              </button>
            ))}
          </fieldset>
          {method === 'password' && <PasswordLogin accept={accept} />}
          {method === 'code' && <CodeLogin accept={accept} />}
          {method === 'passkey' && <PasskeyLogin accept={accept} />}
          {method === 'wallet' && <WalletLogin accept={accept} />}
          <p>
            No account yet? <a href="#/signup">Sign up with an invite code</a>.
          </p>
        </>
      )}
    </Page>
  );
}

type Accept = { accept: (o: LoginOutcome) => void };

function PasswordLogin({ accept }: Accept) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  return (
    <Form
      submit="Log in"
      label="Log in with password"
      onSubmit={async () => accept(await post('/api/auth/login', { email, password }, { auth: 'none' }))}
    >
      <Field label="E-mail" type="email" value={email} onChange={setEmail} autoComplete="username" autoFocus />
      <Field label="Password" type="password" value={password} onChange={setPassword} autoComplete="current-password" />
      <p>
        <a href="#/forgot">Forgot password?</a>
      </p>
    </Form>
  );
}

function CodeLogin({ accept }: Accept) {
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  if (!sent) {
    return (
      <Form
        submit="Send me a code"
        label="Ask for a login code"
        onSubmit={async () =>
          setSent(
            (await post<{ message: string }>('/api/auth/login/code/request', { email }, { auth: 'none' })).message,
          )
        }
      >
        <Field label="E-mail" type="email" value={email} onChange={setEmail} autoComplete="username" autoFocus />
      </Form>
    );
  }
  return (
    <Form
      submit="Log in"
      label="Log in with the e-mailed code"
      onSubmit={async () => accept(await post('/api/auth/login/code/consume', { email, code }, { auth: 'none' }))}
    >
      <p role="status">{sent} The link in the message opens this console logged in, too.</p>
      <Field
        label="6-digit code"
        value={code}
        onChange={setCode}
        autoComplete="one-time-code"
        inputMode="numeric"
        autoFocus
      />
    </Form>
  );
}

function PasskeyLogin({ accept }: Accept) {
  return (
    <div className="form">
      <p>
        Use a passkey saved on this device or a security key. Passkeys work at http://localhost:&lt;port&gt; (browsers
        refuse an IP address).
      </p>
      <ActionButton
        onClick={async () => {
          const optionsJSON = await post<PublicKeyCredentialRequestOptionsJSON>(
            '/api/auth/passkey/login-begin',
            {},
            { auth: 'none' },
          );
          // WebAuthn helpers load with the first passkey use: the first page stays light.
          const { startAuthentication } = await import('@simplewebauthn/browser');
          const response = await startAuthentication({ optionsJSON });
          accept(await post('/api/auth/passkey/login-finish', { response }, { auth: 'none' }));
        }}
      >
        Log in with a passkey
      </ActionButton>
    </div>
  );
}

function WalletLogin({ accept }: Accept) {
  const [invite, setInvite] = useState('');
  return (
    <Form
      submit="Sign in with wallet"
      label="Sign in with Ethereum"
      onSubmit={async () => {
        const signed = await signInMessage();
        const body = { message: signed.message, signature: signed.signature };
        accept(
          invite.trim()
            ? await post('/api/auth/wallet/signup', { ...body, invite_code: invite }, { auth: 'none' })
            : await post('/api/auth/wallet/login', body, { auth: 'none' }),
        );
      }}
    >
      <p>
        {walletProvider()
          ? 'Your wallet will ask you to sign a Sign-In with Ethereum message.'
          : 'No wallet found in this browser (a wallet extension provides one).'}
      </p>
      <Field
        label="Invite code (first time only: creates the account)"
        value={invite}
        onChange={setInvite}
        required={false}
      />
    </Form>
  );
}
