import { useSession } from '../lib/session.js';
import { Page } from '../lib/ui.js';
import { ConfiguredEvents } from './events-configured.js';
import { LiveEvents } from './events-live.js';

const TABS = [
  ['live', 'Live'],
  ['configured', 'Configured'],
  ['schedules', 'Schedules'],
] as const;

/** Events of the selected Company: the live stream, the configured events, the schedules. */
export function EventsPage({ tab }: { tab: string | null }) {
  const { companyId } = useSession();
  const current = TABS.some(([t]) => t === tab) ? tab! : 'live';
  if (!companyId) {
    return (
      <Page title="Events">
        <p>
          Events belong to a Company: <a href="#/companies">select or create one</a> first.
        </p>
      </Page>
    );
  }
  return (
    <Page title="Events">
      <nav className="tabs" aria-label="Events views">
        {TABS.map(([t, label]) => (
          <a
            key={t}
            href={`#/events/${t}`}
            className={t === current ? 'tab on' : 'tab'}
            aria-current={t === current ? 'page' : undefined}
          >
            {label}
          </a>
        ))}
        <a href="#/trace" className="tab">
          Trace
        </a>
      </nav>
      {current === 'live' ? <LiveEvents /> : <ConfiguredEvents key={current} scheduled={current === 'schedules'} />}
    </Page>
  );
}
