import { useId, useState } from 'react';
import { get, post } from '../lib/api.js';
import type { Emitted } from '../../shared/runtime-records.js';
import { Field, Form, useLoad } from '../lib/ui.js';
import { describeFiring } from './trace.js';

interface Configured {
  id: string;
  type: string;
  status: 'active' | 'paused' | 'armed';
  tool_calls: { tool: string }[];
}

/** A pattern one trigger can match as it is: no wildcard, not a schedule (those fire on their own). */
const triggerable = (c: Configured) =>
  c.status === 'active' && c.tool_calls.length > 0 && !c.type.includes('*') && !c.type.startsWith('schedule:');

/**
 * Triggering by hand: the type field suggests the patterns a configured event would fire on
 * (so a first try does something), and the answer shows what fired and what did not, and why.
 */
export function TriggerForm() {
  const [type, setType] = useState('');
  const [content, setContent] = useState('');
  const [result, setResult] = useState<Emitted | null>(null);
  const listId = useId();
  const configured = useLoad(() =>
    get<{ events: Configured[] }>('/api/events?configured=true&scheduled=false', { company: true }),
  );
  const ready = (configured.data?.events ?? []).filter(triggerable);
  const types = [...new Set(ready.map((c) => c.type))];
  const hint = types.length
    ? `e.g. ${types[0]}, which fires ${ready
        .filter((c) => c.type === types[0])
        .flatMap((c) => c.tool_calls.map((t) => t.tool))
        .join(', ')}`
    : 'Nothing is configured to fire yet (see Configured): a triggered event is only recorded.';
  return (
    <>
      <Form
        submit="Trigger"
        onSubmit={async () => {
          let parsed: unknown;
          try {
            parsed = content.trim() ? JSON.parse(content) : undefined;
          } catch {
            throw new Error('Content must be JSON, e.g. {"reason":"test"}.');
          }
          setResult(null);
          setResult(
            await post<Emitted>(
              '/api/events/trigger',
              { type, ...(parsed === undefined ? {} : { content: parsed }) },
              { company: true },
            ),
          );
        }}
      >
        <Field label="Event type" value={type} onChange={setType} hint={hint} list={listId} />
        <datalist id={listId}>
          {types.map((t) => (
            <option key={t} value={t} />
          ))}
        </datalist>
        <Field label="Content (JSON, optional)" value={content} onChange={setContent} required={false} />
      </Form>
      {result ? <TriggerResult result={result} /> : null}
    </>
  );
}

function TriggerResult({ result }: { result: Emitted }) {
  const notFired = result.not_fired ?? [];
  return (
    <div role="status" className="fired">
      <p>
        Triggered <code>{result.event.type}</code>:{' '}
        <a href={`#/trace/${encodeURIComponent(result.event.id)}`}>Trace {result.event.id}</a>
      </p>
      {result.fired.length || notFired.length ? (
        <ul className="plain">
          {result.fired.map((f, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: one answer's firings, shown once, never reordered
            <li key={i} className={f.ok ? 'ok' : 'bad'}>
              {describeFiring(f)}
            </li>
          ))}
          {notFired.map((f) => (
            <li key={f.configured_event_id}>
              not fired: {f.configured_event_id} ({f.reason})
            </li>
          ))}
        </ul>
      ) : (
        <p>Nothing is configured for this type: it was recorded and fired nothing.</p>
      )}
    </div>
  );
}
