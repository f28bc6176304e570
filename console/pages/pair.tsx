import { useEffect, useState } from 'react';
import { ApiFailure, post } from '../lib/api.js';
import { navigate } from '../lib/router.js';
import { logOutLocally } from '../lib/session.js';
import { ActionButton, ErrorText, Field, Form, Page, when } from '../lib/ui.js';

interface Pairing {
  user_code: string;
  client: string | null;
  user_agent: string | null;
  ip: string | null;
  created_at: string;
  expires_at: string;
}

/**
 * `svc login --web`'s page: shows the pairing the code names, so the person can check it is the
 * code in their terminal and that they started it, then approve (the CLI gets its own session) or deny.
 * Approving needs a login from the last 10 minutes (a left-open tab must not hand out sessions):
 * on `reauth_required` the page says so and offers to log in again, keeping the code in the URL.
 */
export function PairPage({ code: fromUrl }: { code: string | null }) {
  const [code, setCode] = useState(fromUrl ?? '');
  const [pairing, setPairing] = useState<Pairing | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reauth, setReauth] = useState<string | null>(null);
  const lookup = async (c: string) =>
    setPairing((await post<{ pairing: Pairing }>('/api/auth/pairing/lookup', { user_code: c })).pairing);
  // biome-ignore lint/correctness/useExhaustiveDependencies: look up once per code in the URL, not on every render's new `lookup`
  useEffect(() => {
    if (fromUrl) lookup(fromUrl).catch((err: Error) => setError(err.message));
  }, [fromUrl]);

  if (done) {
    return (
      <Page title="Terminal pairing">
        <p role="status">{done}</p>
      </Page>
    );
  }
  return (
    <Page title="Log in a terminal">
      {!pairing ? (
        <Form submit="Continue" label="Pairing code" onSubmit={() => lookup(code)}>
          <p>Enter the code that `svc login --web` shows in your terminal.</p>
          <Field label="Pairing code" value={code} onChange={setCode} autoFocus />
          <ErrorText error={error} />
        </Form>
      ) : (
        <div className="card">
          <p>Check that your terminal shows this code:</p>
          <p className="pair-code">{pairing.user_code}</p>
          <dl>
            {/* The terminal names itself: shown as its claim, never as a verdict. */}
            <dt>The terminal calls itself</dt>
            <dd>{pairing.client ?? '—'}</dd>
            <dt>Program</dt>
            <dd>{pairing.user_agent ?? 'unknown'}</dd>
            <dt>From address</dt>
            <dd>{pairing.ip ?? 'unknown'}</dd>
            <dt>Asked at</dt>
            <dd>{when(pairing.created_at)}</dd>
          </dl>
          <p>Approve only if you started this yourself, just now: the terminal gets its own session on your account.</p>
          {reauth ? (
            <p className="error" role="alert">
              Your login is too old to approve a terminal. {reauth}
            </p>
          ) : null}
          <div className="actions">
            {reauth ? (
              <button
                type="button"
                onClick={() => {
                  // Back to this code after the login page; the stale session is ended, not just forgotten.
                  navigate(`#/pair/${pairing.user_code}`);
                  void post('/api/auth/logout').finally(logOutLocally);
                }}
              >
                Log in again
              </button>
            ) : (
              <ActionButton
                onClick={async () => {
                  try {
                    await post('/api/auth/pairing/approve', { user_code: pairing.user_code });
                  } catch (err) {
                    if (err instanceof ApiFailure && err.code === 'reauth_required') return setReauth(err.message);
                    throw err;
                  }
                  setDone('Approved. Your terminal is logged in; you can close this tab.');
                }}
              >
                Approve
              </ActionButton>
            )}
            <ActionButton
              danger
              onClick={async () => (
                await post('/api/auth/pairing/deny', { user_code: pairing.user_code }),
                setDone('Denied. The terminal gets no session.')
              )}
            >
              Deny
            </ActionButton>
          </div>
        </div>
      )}
    </Page>
  );
}
