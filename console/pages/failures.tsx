import { useState } from 'react';
import type { Failure } from '../../shared/firings.js';
import { get, post } from '../lib/api.js';
import { RecordTable } from '../lib/record-table.js';
import { useSession } from '../lib/session.js';
import { ErrorText, Page, Section, useAction, useLoad, when } from '../lib/ui.js';

interface ReplayAnswer {
  replayed: Array<{ failure_id: string; event_id: string; ok: boolean; error?: string }>;
  skipped: Array<{ failure_id: string; reason: string; replay_event_id?: string | null }>;
}

const traceLink = (id: string) => <a href={`#/trace/${encodeURIComponent(id)}`}>{id}</a>;

/**
 * Tool calls that failed for good, and their replay once the cause is fixed: tick the ones to run
 * again and replay them, one after the other (the daemon runs each failure once ever, so a second
 * replay, from here or anywhere, says it was done already).
 */
export function FailuresPage() {
  const { companyId } = useSession();
  if (!companyId)
    return (
      <Page title="Failures">
        <p>
          Failures belong to a Company: <a href="#/companies">select or create one</a> first.
        </p>
      </Page>
    );
  return (
    <Page title="Failures">
      <FailureList />
    </Page>
  );
}

function FailureList() {
  const list = useLoad(() => get<{ failures: Failure[] }>('/api/events/failures', { company: true }));
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [outcome, setOutcome] = useState<string[]>([]);
  const rows = list.data?.failures;
  const open = rows?.filter((f) => f.replayed_at === null) ?? [];
  const toggle = (id: string) =>
    setChosen((s) => {
      const next = new Set(s);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const replay = useAction(async () => {
    const lines: string[] = [];
    for (const id of chosen) {
      const a = await post<ReplayAnswer>('/api/events/replay', { failure_id: id }, { company: true });
      for (const r of a.replayed)
        lines.push(`Replayed ${r.failure_id} as ${r.event_id}: ${r.ok ? 'it worked' : `it failed again (${r.error})`}`);
      for (const s of a.skipped) lines.push(`Skipped ${s.failure_id}: ${s.reason.replace('_', ' ')}`);
    }
    setOutcome(lines);
    setChosen(new Set());
    list.reload();
  });
  return (
    <Section title="Failed tool calls">
      <RecordTable
        error={list.error}
        rows={rows}
        empty="No failures: every tool call that ran has worked, or is waiting for a retry."
        columns={[
          {
            head: <span className="sr-only">Choose</span>,
            cell: (f) =>
              f.replayed_at === null ? (
                <input
                  type="checkbox"
                  aria-label={`Choose ${f.tool} of ${f.event_id}`}
                  checked={chosen.has(f.id)}
                  onChange={() => toggle(f.id)}
                />
              ) : null,
          },
          { head: 'Tool', cell: (f) => <code>{f.tool}</code> },
          { head: 'Event', cell: (f) => traceLink(f.event_id) },
          { head: 'Attempts', cell: (f) => f.attempts },
          { head: 'Failed', cell: (f) => when(f.failed_at) },
          {
            head: 'Error or replay',
            cell: (f) => (f.replay_event_id ? <>replayed as {traceLink(f.replay_event_id)}</> : f.error),
          },
        ]}
      />
      {open.length > 0 ? (
        <div className="actions">
          <button
            type="button"
            className="secondary"
            onClick={() => setChosen(chosen.size === open.length ? new Set() : new Set(open.map((f) => f.id)))}
          >
            {chosen.size === open.length ? 'Choose none' : 'Choose all'}
          </button>
          <button type="button" disabled={chosen.size === 0 || replay.busy} onClick={() => void replay.run()}>
            {replay.busy ? 'Replaying…' : `Replay ${chosen.size} chosen`}
          </button>
        </div>
      ) : null}
      <ErrorText error={replay.error} />
      {outcome.length > 0 ? (
        <ul role="status" className="plain">
          {outcome.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      ) : null}
    </Section>
  );
}
