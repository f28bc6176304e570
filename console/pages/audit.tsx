import { useEffect, useId, useState } from 'react';
import type { AuditEntryView, AuditPageView } from '../../shared/audit-view.js';
import { get, headersFor } from '../lib/api.js';
import { RecordTable } from '../lib/record-table.js';
import { useSession } from '../lib/session.js';
import { ActionButton, Field, Form, Page, Section, when } from '../lib/ui.js';

interface Filters {
  action: string;
  outcome: string;
  since: string;
  onlySelected: boolean;
}

const queryOf = (f: Filters, extra: Record<string, string> = {}) =>
  new URLSearchParams(
    Object.entries({ action: f.action.trim(), outcome: f.outcome, since: f.since.trim(), ...extra }).filter(
      ([, v]) => v !== '',
    ),
  ).toString();

/**
 * The audit trail (GET /api/audit): your own entries (logins, failed ones included, factors, keys)
 * and those of the Companies you own, newest first, filtered; older pages on demand; the same
 * selection downloaded as JSON Lines.
 */
export function AuditPage() {
  const { companyId } = useSession();
  const [filters, setFilters] = useState<Filters>({ action: '', outcome: '', since: '', onlySelected: false });
  const [rows, setRows] = useState<AuditEntryView[] | undefined>(undefined);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const outcomeId = useId();
  const narrow = filters.onlySelected && companyId !== null;

  const load = async (more: boolean) => {
    try {
      const page = await get<AuditPageView>(`/api/audit?${queryOf(filters, more && cursor ? { cursor } : {})}`, {
        company: narrow,
      });
      setRows((old) => (more ? [...(old ?? []), ...page.entries] : page.entries));
      setCursor(page.next_cursor);
      setError(null);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const exportLines = async () => {
    const res = await fetch(`/api/audit?${queryOf(filters, { format: 'jsonl' })}`, {
      headers: headersFor({ company: narrow }),
    });
    if (!res.ok) throw new Error(((await res.json()) as { error?: string }).error ?? `HTTP ${res.status}`);
    const link = document.createElement('a');
    link.href = URL.createObjectURL(await res.blob());
    link.download = 'svc-audit.jsonl';
    link.click();
    URL.revokeObjectURL(link.href);
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: the first page once, unfiltered; the form loads the others
  useEffect(() => void load(false), []);
  const set = (change: Partial<Filters>) => setFilters((f) => ({ ...f, ...change }));

  return (
    <Page title="Audit">
      <Section title="Filters">
        <Form submit="Show entries" onSubmit={() => load(false)} label="Audit filters">
          <Field
            label="Action"
            value={filters.action}
            onChange={(action) => set({ action })}
            required={false}
            hint="account.login, key, mcp.tools_call, rest.call… (a family by its first part)"
          />
          <div className="field">
            <label htmlFor={outcomeId}>Outcome</label>
            <select id={outcomeId} value={filters.outcome} onChange={(e) => set({ outcome: e.target.value })}>
              <option value="">any</option>
              <option value="succeeded">succeeded</option>
              <option value="refused">refused</option>
            </select>
          </div>
          <Field
            label="Since"
            value={filters.since}
            onChange={(since) => set({ since })}
            required={false}
            hint="an ISO date or time, e.g. 2026-11-01"
          />
          {companyId ? (
            <label>
              <input
                type="checkbox"
                checked={filters.onlySelected}
                onChange={(e) => set({ onlySelected: e.target.checked })}
              />{' '}
              Only the selected Company
            </label>
          ) : null}
        </Form>
      </Section>
      <Section title="Entries">
        <RecordTable
          error={error}
          rows={rows}
          empty="No entries match."
          columns={[
            { head: 'When', cell: (e) => when(e.at) },
            { head: 'Outcome', cell: (e) => (e.outcome === 'refused' ? <strong>refused</strong> : 'succeeded') },
            { head: 'Action', cell: (e) => <code>{e.action}</code> },
            { head: 'Who', cell: (e) => e.actor.key_id ?? e.actor.client_id ?? e.actor.user_id ?? e.actor.type },
            { head: 'Target', cell: (e) => e.target ?? '—' },
            { head: 'Reason', cell: (e) => e.reason ?? '' },
            { head: 'From', cell: (e) => e.client_address ?? '—' },
          ]}
        />
        {cursor ? <ActionButton onClick={() => load(true)}>Older entries</ActionButton> : null}
        {rows ? <ActionButton onClick={exportLines}>Download as JSON Lines</ActionButton> : null}
      </Section>
    </Page>
  );
}
