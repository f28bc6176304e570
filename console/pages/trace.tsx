import { useState } from 'react';
import { get } from '../lib/api.js';
import type { Firing, TraceNode } from '../../shared/runtime-records.js';
import { ErrorText, Field, Form, Page, useLoad, when } from '../lib/ui.js';
import { navigate } from '../lib/router.js';

/** The answer of `/api/events/trace`: the tree, cut and marked when it grew past the daemon's limit. */
type Trace = TraceNode & { truncated?: boolean };

/** The causation tree of one event: what it fired, what it considered and did not, and what followed. */
export function TracePage({ eventId }: { eventId: string | null }) {
  const [id, setId] = useState(eventId ?? '');
  const trace = useLoad(
    async () =>
      eventId ? get<Trace>(`/api/events/trace?event_id=${encodeURIComponent(eventId)}`, { company: true }) : null,
    [eventId],
  );
  return (
    <Page title="Trace">
      <Form submit="Show trace" onSubmit={async () => navigate(`#/trace/${encodeURIComponent(id.trim())}`)}>
        <Field label="Event id" value={id} onChange={setId} />
      </Form>
      <ErrorText error={trace.error} />
      {/* A failed lookup shows its error alone, never the tree of the id asked for before. */}
      {trace.data && !trace.error ? (
        <ul className="tree" aria-label={`Causation tree of ${trace.data.event.id}`}>
          <Node node={trace.data} />
        </ul>
      ) : null}
    </Page>
  );
}

function Node({ node }: { node: Trace }) {
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
                {describeFiring(f)}
              </li>
            ))}
          </ul>
        ) : null}
        {node.not_fired.length ? (
          <ul className="plain considered">
            {node.not_fired.map((f) => (
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

/** One tool call and how it went; a retried call also says which attempt this was and what comes next. */
export function describeFiring(f: Firing): string {
  const how = f.skipped ? `skipped, ${f.skipped}` : f.ok ? 'ok' : `failed${f.error ? `: ${f.error}` : ''}`;
  const attempt = f.attempt
    ? ` (attempt ${f.attempt}${f.next_attempt_at ? `, next at ${when(f.next_attempt_at)}` : ''}${f.outcome ? `, ${f.outcome}` : ''})`
    : '';
  return `fired ${f.tool} (${f.configured_event_id}): ${how}${attempt}`;
}
