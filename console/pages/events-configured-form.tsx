import { useState } from 'react';
import { call, post } from '../lib/api.js';
import { Field, Form } from '../lib/ui.js';
import type { Configured } from './configured-row.js';

const TOOLS = ['quests.create', 'quests.update', 'message_to', 'sessions.update', 'sessions.compact'] as const;
const DEFAULT_ARGS = '{"title":"Follow up on {{event.type}}"}';

type Call = { tool: string; args: string };

/** A call's arguments as the form's text, or refused with the sentence the create form always gave. */
function parseArgs(text: string, n: number): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = text.trim() ? JSON.parse(text) : {};
  } catch {
    parsed = undefined;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new Error(`Arguments${n ? ` ${n + 1}` : ''} must be a JSON object, e.g. {"title":"Follow up"}.`);
  return parsed as Record<string, unknown>;
}

/** The outcome sentence: an armed rule is called out with the names that do fire under its prefix. */
function outcome(verb: string, c: Configured): string {
  if (c.status !== 'armed') return `${verb} ${c.id} (${c.status}).`;
  const names = c.names_that_fire?.length ? ` Names that fire: ${c.names_that_fire.join(', ')}.` : '';
  return `${verb} ${c.id}, but it will never fire: ${c.armed_reason ?? 'nothing emits it'}.${names} Delete it and use one of those.`;
}

/**
 * A pattern and its tool calls: a new configured event, or (with `editing`) the tool calls of an
 * existing one, prefilled. The pattern of an existing rule is fixed (the daemon keys its matcher
 * state and trace history on it), so editing shows it read-only. The daemon checks the name
 * against what its emitters produce: a rule that would never fire is said so at once.
 */
export function ConfiguredForm({
  editing,
  onSaved,
  onCancel,
}: {
  editing?: Configured;
  onSaved: () => void;
  onCancel?: () => void;
}) {
  const [type, setType] = useState(editing?.type ?? '');
  const [calls, setCalls] = useState<Call[]>(
    editing
      ? editing.tool_calls.map((t) => ({ tool: t.tool, args: JSON.stringify(t.args ?? {}) }))
      : [{ tool: 'quests.create', args: DEFAULT_ARGS }],
  );
  const [done, setDone] = useState<string | null>(null);
  const [armed, setArmed] = useState(false);
  const setCall = (i: number, change: Partial<Call>) =>
    setCalls((all) => all.map((c, j) => (j === i ? { ...c, ...change } : c)));
  return (
    <>
      <Form
        submit={editing ? 'Save changes' : 'Create configured event'}
        label={editing ? 'Edit configured event' : undefined}
        onSubmit={async () => {
          const tool_calls = calls.map((c, i) => ({ tool: c.tool, args: parseArgs(c.args, i) }));
          setDone(null);
          const { event } = editing
            ? await call<{ event: Configured }>(
                'PATCH',
                `/api/events/${encodeURIComponent(editing.id)}`,
                { tool_calls },
                { company: true },
              )
            : await post<{ event: Configured }>('/api/events', { type: type.trim(), tool_calls }, { company: true });
          setArmed(event.status === 'armed');
          setDone(outcome(editing ? 'Saved' : 'Created', event));
          onSaved();
        }}
      >
        {editing ? (
          <p>
            Pattern <code>{editing.type}</code> (fixed: to react to another name, create a new configured event)
          </p>
        ) : (
          <Field label="Pattern" value={type} onChange={setType} hint="<prefix>:<name>, e.g. session:stopped" />
        )}
        {calls.map((c, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the calls run in order; position is their identity
          <fieldset key={i} className="tool-call">
            <div className="field">
              <label htmlFor={`cfg-tool-${i}`}>{i ? `Tool ${i + 1}` : 'Tool'}</label>
              <select id={`cfg-tool-${i}`} value={c.tool} onChange={(e) => setCall(i, { tool: e.target.value })}>
                {TOOLS.map((t) => (
                  <option key={t}>{t}</option>
                ))}
              </select>
            </div>
            <Field
              label={i ? `Arguments ${i + 1} (JSON)` : 'Arguments (JSON)'}
              value={c.args}
              onChange={(args) => setCall(i, { args })}
              required={false}
              hint="{{event.<field>}} takes a value from the firing event"
            />
            <button
              type="button"
              className="secondary"
              onClick={() => setCalls((all) => all.filter((_, j) => j !== i))}
            >
              {`Remove tool call ${i + 1}`}
            </button>
          </fieldset>
        ))}
        <div className="actions">
          <button
            type="button"
            className="secondary"
            onClick={() => setCalls((all) => [...all, { tool: 'quests.create', args: '{}' }])}
          >
            Add a tool call
          </button>
          {onCancel ? (
            <button type="button" className="secondary" onClick={onCancel}>
              {done ? 'Close' : 'Cancel'}
            </button>
          ) : null}
        </div>
        {calls.length ? null : <p>No tool calls: the rule is a marker that fires nothing.</p>}
      </Form>
      {done ? (
        <p role="status" className={armed ? 'error' : undefined}>
          {done}
        </p>
      ) : null}
    </>
  );
}
