import { useState } from 'react';
import { get, post } from '../lib/api.js';
import { QrCode } from '../lib/qr.js';
import { CopyButton, ErrorText, Field, Form, Section, useLoad } from '../lib/ui.js';

interface Enrolment {
  secret: string;
  otpauth_uri: string;
}

/** TOTP: enrol (QR code + secret, confirm with a first code → recovery codes shown once), or turn off. */
export function TotpSection() {
  const status = useLoad(() => get<{ enabled: boolean; recovery_codes_left?: number }>('/api/auth/totp'));
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  const [proof, setProof] = useState('');

  if (codes) {
    return (
      <Section title="Two-factor authentication">
        <p role="status">Two-factor authentication is on. Save these recovery codes now: they are shown only once.</p>
        <ul className="codes" aria-label="Recovery codes">
          {codes.map((c) => (
            <li key={c}>
              <code>{c}</code>
            </li>
          ))}
        </ul>
        <CopyButton text={codes.join('\n')} label="Copy recovery codes" />{' '}
        <button type="button" className="secondary" onClick={() => (setCodes(null), status.reload())}>
          I saved them
        </button>
      </Section>
    );
  }
  if (enrolment) {
    return (
      <Section title="Two-factor authentication">
        <p>Scan this code with your authenticator app, or type the secret into it. Then enter the code it shows.</p>
        <QrCode text={enrolment.otpauth_uri} label="QR code of the authenticator secret" />
        <p>
          Secret: <code className="secret">{enrolment.secret}</code>{' '}
          <CopyButton text={enrolment.secret} label="Copy secret" />
        </p>
        <Form
          submit="Turn on two-factor"
          onSubmit={async () => (
            setCodes(
              (await post<{ recovery_codes: string[] }>('/api/auth/totp/enroll/confirm', { code })).recovery_codes,
            ),
            setEnrolment(null),
            setCode('')
          )}
        >
          <Field
            label="Code from the app"
            value={code}
            onChange={setCode}
            autoComplete="one-time-code"
            inputMode="numeric"
            autoFocus
          />
        </Form>
      </Section>
    );
  }
  return (
    <Section title="Two-factor authentication">
      <ErrorText error={status.error} />
      {status.data?.enabled ? (
        <>
          <p>On. Recovery codes left: {status.data.recovery_codes_left ?? '—'}.</p>
          <Form
            submit="Turn off two-factor"
            secondary
            onSubmit={async () => (
              await post('/api/auth/totp/disable', looksLikeCode(proof) ? { code: proof.trim() } : { password: proof }),
              setProof(''),
              status.reload()
            )}
          >
            <Field
              label="A current code, a recovery code or your password"
              type="password"
              value={proof}
              onChange={setProof}
            />
          </Form>
        </>
      ) : status.data ? (
        <Form
          submit="Set up two-factor"
          onSubmit={async () => setEnrolment(await post<Enrolment>('/api/auth/totp/enroll'))}
        >
          <p>Off. An authenticator app adds a second step to password, code and wallet logins.</p>
        </Form>
      ) : null}
    </Section>
  );
}

/** A 6-digit code or a recovery code (`xxxxx-xxxxx`); anything else is taken as the password. */
const looksLikeCode = (v: string) => /^\d{6}$/.test(v.trim()) || /^[a-z0-9]{5}-?[a-z0-9]{5}$/i.test(v.trim());
