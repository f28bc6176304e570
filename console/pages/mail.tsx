import { useState } from 'react';
import type { MailListResponse, MailMessage as Mail } from '../../shared/wire.js';
import { get } from '../lib/api.js';
import { updateSession, useSession } from '../lib/session.js';
import { ActionButton, Field, Form, Page, Section, when } from '../lib/ui.js';

/**
 * The mail a local daemon captured (GET /api/dev/mail). That route needs the operator token,
 * which the daemon never hands to a page: the person pastes it from `<data>/operator-token`,
 * and it stays in this page's memory.
 */
export function MailPage() {
  const { operatorToken } = useSession();
  const [token, setToken] = useState('');
  const [to, setTo] = useState('');
  const [mail, setMail] = useState<Mail[] | null>(null);
  const load = async () => {
    const q = to.trim() ? `?to=${encodeURIComponent(to.trim())}` : '';
    setMail((await get<MailListResponse>(`/api/dev/mail${q}`, { auth: 'operator' })).mail.reverse());
  };
  if (!operatorToken) {
    return (
      <Page title="Captured mail">
        <Form submit="Open captured mail" onSubmit={async () => updateSession({ operatorToken: token.trim() })}>
          <p>
            A local daemon keeps the e-mails it would have sent. Paste its operator token (the file operator-token in
            its data folder, e.g. ~/.local/share/svc/operator-token).
          </p>
          <Field label="Operator token" type="password" value={token} onChange={setToken} />
        </Form>
      </Page>
    );
  }
  return (
    <Page title="Captured mail">
      <Form submit="Show mail" onSubmit={load}>
        <Field label="To (optional)" type="email" value={to} onChange={setTo} required={false} />
      </Form>
      <ActionButton onClick={async () => updateSession({ operatorToken: null })}>
        Forget the operator token
      </ActionButton>
      {(mail ?? []).map((m) => (
        <Section key={m.id} title={m.subject}>
          <p className="muted">
            to {m.to}, {when(m.created_at)}
          </p>
          {m.code ? (
            <p>
              Code: <code className="mail-code">{m.code}</code>
            </p>
          ) : null}
          {m.link ? (
            <p>
              <a href={m.link}>Open the link</a>
            </p>
          ) : null}
          <pre>{m.text}</pre>
        </Section>
      ))}
      {mail && mail.length === 0 ? <p>No mail.</p> : null}
    </Page>
  );
}
