import { useEffect, useState } from 'react';
import { post } from '../lib/api.js';
import type { EventRow } from '../../shared/event-row.js';
import { followEvents } from '../lib/sse.js';
import { ErrorText, Field, Form, Section, when } from '../lib/ui.js';

const FILTERS = [
  ['event_type', 'Event type (pattern)'],
  ['agent_id', 'Agent id'],
  ['session_id', 'Session id'],
  ['quest_id', 'Quest id'],
] as const;
type Filters = Record<(typeof FILTERS)[number][0], string>;

/** The live stream: events as they land, filtered like `svc events tail`; each links to its trace. */
export function LiveEvents() {
  const [draft, setDraft] = useState<Filters>({ event_type: '', agent_id: '', session_id: '', quest_id: '' });
  const [filters, setFilters] = useState<Filters>(draft);
  const [rows, setRows] = useState<EventRow[]>([]);
  const [state, setState] = useState<{ live: boolean; error: string | null }>({ live: false, error: null });
  useEffect(() => {
    const abort = new AbortController();
    let last: string | null = null;
    const query = () =>
      new URLSearchParams([
        ...Object.entries(filters).filter(([, v]) => v.trim()),
        ...(last ? [['since_id', last]] : []),
      ]).toString();
    const loop = async () => {
      while (!abort.signal.aborted) {
        setState({ live: true, error: null });
        try {
          await followEvents(
            query(),
            (row) => ((last = row.id), setRows((r) => [row, ...r].slice(0, 200))),
            abort.signal,
          );
        } catch (err) {
          if (abort.signal.aborted) return;
          setState({ live: false, error: (err as Error).message });
          if ((err as { status?: number }).status && (err as { status: number }).status < 500) return;
        }
        // The daemon ended the stream (a restart): resume after the last event seen.
        await new Promise((r) => setTimeout(r, 2000));
      }
    };
    void loop();
    return () => abort.abort();
  }, [filters]);
  return (
    <>
      <Section title="Live events">
        <p role="status" className={state.live ? 'live' : undefined}>
          {state.live ? 'Listening: new events appear at the top.' : 'Not connected.'}
        </p>
        <ErrorText error={state.error} />
        <ol className="events" aria-live="polite" aria-label="Events, newest first">
          {rows.map((e) => (
            <li key={e.id}>
              <code className="type">{e.type}</code> <span className="muted">{when(e.created_at)}</span>{' '}
              {e.source ? <span className="badge">{e.source}</span> : null}{' '}
              <a href={`#/trace/${encodeURIComponent(e.id)}`}>Trace {e.id}</a>
            </li>
          ))}
        </ol>
      </Section>
      <Section title="Filters">
        <Form submit="Apply filters" onSubmit={async () => (setRows([]), setFilters(draft))}>
          <div className="grid">
            {FILTERS.map(([key, label]) => (
              <Field
                key={key}
                label={label}
                value={draft[key]}
                onChange={(v) => setDraft({ ...draft, [key]: v })}
                required={false}
              />
            ))}
          </div>
        </Form>
      </Section>
      <Section title="Trigger an event">
        <Trigger />
      </Section>
    </>
  );
}

function Trigger() {
  const [type, setType] = useState('');
  const [content, setContent] = useState('');
  return (
    <Form
      submit="Trigger"
      onSubmit={async () => {
        let parsed: unknown;
        try {
          parsed = content.trim() ? JSON.parse(content) : undefined;
        } catch {
          throw new Error('Content must be JSON, e.g. {"reason":"test"}.');
        }
        await post(
          '/api/events/trigger',
          { type, ...(parsed === undefined ? {} : { content: parsed }) },
          { company: true },
        );
      }}
    >
      <Field label="Event type" value={type} onChange={setType} hint="e.g. custom:deploy.finished" />
      <Field label="Content (JSON, optional)" value={content} onChange={setContent} required={false} />
    </Form>
  );
}
