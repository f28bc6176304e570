import { useState } from 'react';
import { get } from '../lib/api.js';
import type { EventRow } from '../../shared/event-row.js';
import { ErrorText, Field, Form, Page, useLoad, when } from '../lib/ui.js';
import { navigate } from '../lib/router.js';

interface Firing {
  configured_event_id: string;
  tool?: string;
  ok?: boolean;
  error?: string;
  reason?: string;
  skipped?: string;
}
interface TraceNode {
  event: EventRow;
  fired: Firing[];
  considered?: Firing[];
  children: TraceNode[];
  truncated?: boolean;
}

/** The causation tree of one event: what it fired, what it considered and did not, and what followed. */
export function TracePage({ eventId }: { eventId: string | null }) {
  const [id, setId] = useState(eventId ?? '');
  const trace = useLoad(
    async () =>
      eventId ? get<TraceNode>(`/api/events/trace?event_id=${encodeURIComponent(eventId)}`, { company: true }) : null,
    [eventId],
  );
  return (
    <Page title="Trace">
      <Form submit="Show trace" onSubmit={async () => navigate(`#/trace/${encodeURIComponent(id.trim())}`)}>
        <Field label="Event id" value={id} onChange={setId} />
      </Form>
      <ErrorText error={trace.error} />
      {trace.data ? (
        <ul className="tree" aria-label={`Causation tree of ${trace.data.event.id}`}>
          <Node node={trace.data} />
        </ul>
      ) : null}
    </Page>
  );
}

function Node({ node }: { node: TraceNode }) {
  const notFired = node.considered ?? [];
  return (
    <li>
      <div className="node">
        <code className="type">{node.event.type}</code> <span className="muted">{node.event.id}</span>{' '}
        <span className="muted">{when(node.event.created_at)}</span>
        {node.fired.length ? (
          <ul className="plain fired">
            {node.fired.map((f, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a firing list is written once per event and never reordered
              <li key={i} className={f.ok ? 'ok' : 'bad'}>
                {f.reason && !f.tool
                  ? `not fired: ${f.configured_event_id} (${f.reason})`
                  : `fired ${f.tool} (${f.configured_event_id}): ${f.skipped ? `skipped, ${f.skipped}` : f.ok ? 'ok' : `failed${f.error ? `: ${f.error}` : ''}`}`}
              </li>
            ))}
          </ul>
        ) : null}
        {notFired.length ? (
          <ul className="plain considered">
            {notFired.map((f) => (
              <li key={f.configured_event_id}>
                not fired: {f.configured_event_id} ({f.reason})
              </li>
            ))}
          </ul>
        ) : null}
        {node.truncated ? <p>Cut here: the tree is too large.</p> : null}
      </div>
      {node.children.length ? (
        <ul>
          {node.children.map((c) => (
            <Node key={c.event.id} node={c} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}
