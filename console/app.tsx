import { useEffect, useState } from 'react';
import { get, post } from './lib/api.js';
import { ClockBadge } from './lib/clock-badge.js';
import { chooseCompany } from './lib/current-company.js';
import { navigate, useRoute, type Route } from './lib/router.js';
import { logOutLocally, useSession } from './lib/session.js';
import { AuditPage } from './pages/audit.js';
import { AppsPage } from './pages/apps.js';
import { CompaniesPage } from './pages/companies.js';
import { EventsPage } from './pages/events.js';
import { FailuresPage } from './pages/failures.js';
import { ForgotPage } from './pages/forgot.js';
import { KeysPage } from './pages/keys.js';
import { LoginPage } from './pages/login.js';
import { MagicPage } from './pages/magic.js';
import { MailPage } from './pages/mail.js';
import type { Me } from './pages/me.js';
import { OAuthConsentPage } from './pages/oauth-consent.js';
import { PairPage } from './pages/pair.js';
import { JoinPage } from './pages/join.js';
import { ProfilePage } from './pages/profile.js';
import { SecurityPage } from './pages/security.js';
import { SignupPage, VerifyPage } from './pages/signup.js';
import { TracePage } from './pages/trace.js';

const NAV = [
  ['profile', 'Profile'],
  ['security', 'Security'],
  ['companies', 'Companies'],
  ['keys', 'Keys'],
  ['apps', 'Apps'],
  ['events', 'Events'],
  ['failures', 'Failures'],
  ['audit', 'Audit'],
  ['mail', 'Mail'],
] as const;
/** Before a login: where a visitor can go. */
const PUBLIC_NAV = [
  ['login', 'Log in'],
  ['signup', 'Sign up'],
  ['mail', 'Mail'],
] as const;

/** The console: the login pages until a session is held, then the account's pages. */
export function App() {
  const route = useRoute();
  const { token } = useSession();
  const [me, setMe] = useState<Me | null>(null);
  const [tick, setTick] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `tick` is the trigger that reloads /api/me
  useEffect(() => {
    if (!token) return setMe(null);
    // A session that no longer loads (revoked, expired, daemon gone): back to the login page.
    get<Me>('/api/me').then(
      (loaded) => {
        setMe(loaded);
        // A Company picked already, the only one, or the one used last here: the events pages open on it.
        if (!loaded.pending_verification) void chooseCompany(loaded.id).catch(() => undefined);
      },
      () => (setMe(null), logOutLocally()),
    );
  }, [token, tick]);
  const refresh = () => setTick((t) => t + 1);
  // After the first paint: `npm run bench` reads this mark (time since navigation start).
  useEffect(() => void performance.mark('svc-console-drawn'), []);

  return (
    <>
      {/* biome-ignore lint/a11y/useValidAnchor: a skip link is a real link to #main; the handler only moves focus there as well */}
      <a className="skip" href="#main" onClick={(e) => (e.preventDefault(), document.getElementById('main')?.focus())}>
        Skip to content
      </a>
      <header>
        <span className="brand">svc console</span>
        <ClockBadge />
        {token && me && !me.pending_verification ? (
          <nav aria-label="Console">
            {NAV.map(([page, label]) => (
              <a key={page} href={`#/${page}`} aria-current={route.page === page ? 'page' : undefined}>
                {label}
              </a>
            ))}
            <span className="who">{me.display_name ?? me.email ?? me.wallet_address}</span>
            <button
              type="button"
              className="secondary"
              onClick={() => void post('/api/auth/logout').finally(logOutLocally)}
            >
              Log out
            </button>
          </nav>
        ) : (
          <nav aria-label="Console">
            {(token ? PUBLIC_NAV.filter(([page]) => page === 'mail') : PUBLIC_NAV).map(([page, label]) => (
              <a key={page} href={`#/${page}`} aria-current={route.page === page ? 'page' : undefined}>
                {label}
              </a>
            ))}
          </nav>
        )}
      </header>
      <main id="main" tabIndex={-1}>
        {token && !me ? <p role="status">Loading…</p> : <Body route={route} me={token ? me : null} refresh={refresh} />}
      </main>
    </>
  );
}

function Body({ route, me, refresh }: { route: Route; me: Me | null; refresh: () => void }) {
  if (route.page === 'mail') return <MailPage />;
  if (!me) {
    if (route.page === 'magic') return <MagicPage />;
    if (route.page === 'signup') return <SignupPage />;
    if (route.page === 'forgot') return <ForgotPage />;
    // Pairing, OAuth consent and an invitation link: log in, then stay on the page the link opened.
    const stay = route.page === 'pair' || route.page === 'oauth' || route.page === 'join';
    const title =
      route.page === 'pair'
        ? 'Log in to approve a terminal'
        : route.page === 'oauth'
          ? 'Log in to connect an app'
          : route.page === 'join'
            ? 'Log in to accept an invitation'
            : 'Log in';
    return <LoginPage title={title} onLoggedIn={() => (stay ? undefined : navigate('#/profile'))} />;
  }
  if (me.pending_verification) return <VerifyPage email={me.email ?? ''} />;
  switch (route.page) {
    case 'security':
      return <SecurityPage me={me} onChange={refresh} />;
    case 'companies':
      return <CompaniesPage />;
    case 'keys':
      return <KeysPage />;
    case 'apps':
      return <AppsPage />;
    case 'events':
      return <EventsPage tab={route.arg} />;
    case 'failures':
      return <FailuresPage />;
    case 'trace':
      return <TracePage eventId={route.arg} />;
    case 'audit':
      return <AuditPage />;
    case 'pair':
      return <PairPage code={route.arg} />;
    case 'oauth':
      return <OAuthConsentPage />;
    case 'join':
      return <JoinPage code={route.arg} />;
    default:
      return <ProfilePage me={me} onChange={refresh} />;
  }
}
