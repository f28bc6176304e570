import { useState } from 'react';
import { post } from '../lib/api.js';
import { navigate } from '../lib/router.js';
import { ActionButton, Page } from '../lib/ui.js';
import { useLoginOutcome } from './login-outcome.js';

/**
 * The page an e-mailed magic link opens (`/auth/magic?token=…`). Opening it consumes nothing (mail
 * scanners fetch links); the button does, and the session it gets stays in this console. The
 * token leaves the address bar as soon as the page has read it.
 */
const linkToken = new URLSearchParams(location.search).get('token') ?? '';
if (location.pathname === '/auth/magic') history.replaceState(null, '', '/auth/magic');

export function MagicPage() {
  const [failed, setFailed] = useState(false);
  const { accept, step } = useLoginOutcome(() => navigate('#/home'));
  return (
    <Page title="Log in to svc">
      {step ?? (
        <>
          <p>Press the button to finish logging in. The link works once, for 10 minutes from when it was sent.</p>
          <ActionButton
            onClick={async () => {
              try {
                accept(await post('/api/auth/login/magic/consume', { token: linkToken }, { auth: 'none' }));
              } catch (err) {
                setFailed(true);
                throw err;
              }
            }}
          >
            Log in
          </ActionButton>
          {failed ? (
            <p>
              <a href="/#/login">Ask for a new code</a>
            </p>
          ) : null}
        </>
      )}
    </Page>
  );
}
