import { useState } from 'react';
import { post } from '../lib/api.js';
import { Field, Form } from '../lib/ui.js';
import type { Configured } from './configured-row.js';

const TOOLS = ['quests.create', 'quests.update', 'message_to', 'sessions.update', 'sessions.compact'] as const;

/**
 * A pattern and one tool call. The daemon checks the name against what its emitters produce: a
 * rule that would never fire is said so at once, with the names that do fire under its prefix.
 */
export function ConfiguredCreateForm({ onCreated }: { onCreated: () => void }) {
  const [type, setType] = useState('');
  const [tool, setTool] = useState<string>('quests.create');
  const [args, setArgs] = useState('{"title":"Follow up on {{event.type}}"}');
  const [made, setMade] = useState<Configured | null>(null);
  return (
    <>
      <Form
        submit="Create configured event"
        onSubmit={async () => {
          let parsed: unknown;
          try {
            parsed = args.trim() ? JSON.parse(args) : {};
          } catch {
            throw new Error('Arguments must be a JSON object, e.g. {"title":"Follow up"}.');
          }
          setMade(null);
          const { event } = await post<{ event: Configured }>(
            '/api/events',
            { type: type.trim(), tool_calls: [{ tool, args: parsed }] },
            { company: true },
          );
          setMade(event);
          onCreated();
        }}
      >
        <Field label="Pattern" value={type} onChange={setType} hint="<prefix>:<name>, e.g. session:stopped" />
        <div className="field">
          <label htmlFor="new-cfg-tool">Tool</label>
          <select id="new-cfg-tool" value={tool} onChange={(e) => setTool(e.target.value)}>
            {TOOLS.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </div>
        <Field
          label="Arguments (JSON)"
          value={args}
          onChange={setArgs}
          hint="{{event.<field>}} takes a value from the firing event"
        />
      </Form>
      {made ? (
        <p role="status" className={made.status === 'armed' ? 'error' : undefined}>
          {made.status === 'armed'
            ? `Created ${made.id}, but it will never fire: ${made.armed_reason ?? 'nothing emits it'}.${
                made.names_that_fire?.length ? ` Names that fire: ${made.names_that_fire.join(', ')}.` : ''
              } Delete it and use one of those.`
            : `Created ${made.id} (${made.status}).`}
        </p>
      ) : null}
    </>
  );
}
