import { useEffect, useState } from 'react';
import { ALL_SCOPES, isScope, SCOPES } from '../../shared/scopes.js';
import { get, post } from '../lib/api.js';
import { ActionButton, ErrorText, Page, useLoad } from '../lib/ui.js';
import { loadCompanies } from './companies.js';

/** The authorization request's own parameters, as the authorization endpoint put them after `#/oauth/consent?`. */
const REQUEST_PARAMS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'code_challenge',
  'code_challenge_method',
  'state',
  'scope',
  'resource',
] as const;

function readRequest(): Record<string, string> {
  const query = location.hash.split('?')[1] ?? '';
  const params = new URLSearchParams(query);
  const request: Record<string, string> = {};
  for (const name of REQUEST_PARAMS) {
    const value = params.get(name);
    if (value !== null) request[name] = value;
  }
  return request;
}

interface ClientInfo {
  client_id: string;
  client_name: string | null;
  redirect_uri_allowed?: boolean;
}

const hostOf = (url: string | undefined) => {
  try {
    return url ? new URL(url).host : null;
  } catch {
    return null;
  }
};

/**
 * The consent page of the authorization server: an MCP client asks to act for the user. The page
 * shows who asks (the name the client gave itself, with its id), where the browser will go back to
 * (the redirect host) and what it asks for; the user picks one of their Companies, may narrow the
 * scopes, and allows or denies. It only forwards the request: `POST /api/oauth/authorize` checks
 * everything again and answers where to send the browser, which the page then follows.
 */
export function OAuthConsentPage() {
  const [request] = useState(readRequest);
  const client = useLoad(async () => {
    // Opened without a request (typed in, a stale bookmark): nothing to look up; the page says so below.
    if (!request.client_id) return null;
    const query = request.redirect_uri ? `?redirect_uri=${encodeURIComponent(request.redirect_uri)}` : '';
    return get<ClientInfo>(`/api/oauth/clients/${encodeURIComponent(request.client_id)}${query}`);
  });
  const companies = useLoad(loadCompanies);
  const asked = request.scope ? request.scope.split(' ').filter(Boolean) : [...ALL_SCOPES];
  const [granted, setGranted] = useState<string[]>(asked);
  const [companyId, setCompanyId] = useState('');
  const [leaving, setLeaving] = useState<string | null>(null);
  const first = companies.data?.companies[0]?.id;
  useEffect(() => {
    if (first && !companyId) setCompanyId(first);
  }, [first, companyId]);

  const answer = async (decision: 'allow' | 'deny') => {
    const { redirect_to } = await post<{ redirect_to: string }>('/api/oauth/authorize', {
      ...request,
      scope: (decision === 'allow' ? granted : asked).join(' '),
      company_id: companyId,
      decision,
    });
    setLeaving(decision === 'allow' ? 'Allowed. Returning to the app…' : 'Denied. Returning to the app…');
    location.assign(redirect_to);
  };

  if (!request.client_id || !request.redirect_uri) {
    return (
      <Page title="Connect an app">
        <p className="error" role="alert">
          This page needs an authorization request: open it from the app you are connecting, not directly.
        </p>
      </Page>
    );
  }
  if (client.error || client.data?.redirect_uri_allowed === false) {
    return (
      <Page title="Connect an app">
        <p className="error" role="alert">
          This sign-in request cannot continue:{' '}
          {client.error ?? 'the address it would send you back to is not one the app registered.'}
        </p>
      </Page>
    );
  }
  if (companies.error) return <ErrorText error={companies.error} />;
  if (!client.data || !companies.data) return <p role="status">Loading…</p>;
  const name = client.data.client_name ?? 'An app';
  const list = companies.data.companies;
  if (leaving) return <p role="status">{leaving}</p>;
  return (
    <Page title={`Connect ${name}`}>
      <div className="card">
        <dl>
          {/* The name is the client's own claim: shown with its id, never as a verdict. */}
          <dt>The app calls itself</dt>
          <dd>{name}</dd>
          <dt>Client id</dt>
          <dd>
            <code>{client.data.client_id}</code>
          </dd>
          <dt>It will return to</dt>
          <dd>
            <code>{hostOf(request.redirect_uri)}</code>
          </dd>
        </dl>
        {list.length === 0 ? (
          <p role="alert">
            An app acts in one of your Companies, and you have none yet: <a href="#/companies">create one</a>, then open
            the app's sign-in again.
          </p>
        ) : (
          <>
            <div className="field">
              <label htmlFor="consent-company">Company it may act in</label>
              <select id="consent-company" value={companyId} onChange={(e) => setCompanyId(e.target.value)}>
                {list.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </select>
            </div>
            <fieldset className="scopes">
              <legend>What it may do there (untick to narrow)</legend>
              {asked.map((scope) => (
                <label key={scope} className="check" htmlFor={`scope-${scope}`}>
                  <input
                    id={`scope-${scope}`}
                    type="checkbox"
                    checked={granted.includes(scope)}
                    onChange={(e) =>
                      setGranted((now) =>
                        e.target.checked
                          ? asked.filter((s) => s === scope || now.includes(s))
                          : now.filter((s) => s !== scope),
                      )
                    }
                  />{' '}
                  <code>{scope}</code> {isScope(scope) ? `— ${SCOPES[scope]}` : ''}
                </label>
              ))}
            </fieldset>
            <p>Allow only an app you are setting up yourself, just now. You can disconnect it later under Apps.</p>
            {granted.length === 0 ? <ErrorText error="Tick at least one scope to allow, or deny." /> : null}
            <div className="actions">
              {granted.length > 0 ? <ActionButton onClick={() => answer('allow')}>Allow</ActionButton> : null}
              <ActionButton danger onClick={() => answer('deny')}>
                Deny
              </ActionButton>
            </div>
          </>
        )}
      </div>
    </Page>
  );
}
