import { useEffect, useState } from 'react';
import { get } from '../lib/api.js';
import type { EventRow } from '../../shared/event-row.js';
import { followEvents } from '../lib/sse.js';
import { ErrorText, Field, Form, Section, when } from '../lib/ui.js';
import { TriggerForm } from './events-trigger.js';

/** How many past events the view opens with, before the live ones arrive. */
const HISTORY = 25;

const FILTERS = [
  ['event_type', 'Event type (pattern)'],
  ['agent_id', 'Agent id'],
  ['session_id', 'Session id'],
  ['quest_id', 'Quest id'],
] as const;
type Filters = Record<(typeof FILTERS)[number][0], string>;

/**
 * The live stream, filtered like `svc events tail`: the newest events first (history, then each new
 * one as it lands, with no gap between them), their content, and a link to each trace.
 */
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
      try {
        // The newest few first; the stream then continues from the log's end as it was then.
        const past = await get<{ events: EventRow[]; cursor: string | null }>(
          `/api/events?${new URLSearchParams([...Object.entries(filters).filter(([, v]) => v.trim()), ['last', String(HISTORY)]])}`,
          { company: true, signal: abort.signal },
        );
        last = past.cursor;
        setRows(past.events.slice().reverse());
      } catch (err) {
        if (abort.signal.aborted) return;
        setState({ live: false, error: (err as Error).message });
        if ((err as { status?: number }).status && (err as { status: number }).status < 500) return;
      }
      while (!abort.signal.aborted) {
        setState({ live: true, error: null });
        try {
          await followEvents(
            query(),
            (row) => (
              (last = row.id), setRows((r) => (r.some((e) => e.id === row.id) ? r : [row, ...r].slice(0, 200)))
            ),
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
        {rows.length === 0 && state.live ? <p className="muted">No events yet.</p> : null}
        <ol className="events" aria-live="polite" aria-label="Events, newest first">
          {rows.map((e) => (
            <li key={e.id}>
              <code className="type">{e.type}</code> <span className="muted">{when(e.created_at)}</span>{' '}
              {e.source ? <span className="badge">{e.source}</span> : null}{' '}
              <a href={`#/trace/${encodeURIComponent(e.id)}`}>Trace {e.id}</a>
              {hasContent(e.content) ? <code className="content">{summarize(e.content)}</code> : null}
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
        <TriggerForm />
      </Section>
    </>
  );
}

const hasContent = (c: unknown) =>
  c !== null && c !== undefined && !(typeof c === 'object' && Object.keys(c as object).length === 0);

/** Content on one line, cut to a readable length (the trace has the whole event). */
function summarize(content: unknown): string {
  const text = typeof content === 'string' ? content : JSON.stringify(content);
  return text.length > 240 ? `${text.slice(0, 239)}…` : text;
}
