import { useState } from 'react';
import { get, post } from '../lib/api.js';
import { selectCompany } from '../lib/current-company.js';
import { useSession } from '../lib/session.js';
import { RecordTable } from '../lib/record-table.js';
import { Field, Form, Page, Section, useLoad, when } from '../lib/ui.js';
import { CompanyLeave } from './company-leave.js';
import { CompanyMembers } from './company-members.js';

export interface Company {
  id: string;
  name: string;
  created_at: string;
  /** Your role in it (owner, admin, member, viewer). */
  role?: string;
}

export const loadCompanies = () => get<{ companies: Company[] }>('/api/companies');

/** Companies: list (with your role), create, choose the one the events pages work in (sent as X-Company), and its members. */
export function CompaniesPage() {
  const list = useLoad(loadCompanies);
  const { companyId } = useSession();
  const [name, setName] = useState('');
  const selected = list.data?.companies.find((c) => c.id === companyId);
  return (
    <Page title="Companies">
      <Section title="Your Companies">
        <RecordTable
          error={list.error}
          rows={list.data?.companies}
          empty="No Company yet: create one."
          columns={[
            { head: 'Name', cell: (c) => c.name },
            { head: 'Id', cell: (c) => <code>{c.id}</code> },
            { head: 'Role', cell: (c) => c.role ?? 'owner' },
            { head: 'Created', cell: (c) => when(c.created_at) },
            {
              head: 'Selected',
              cell: (c) =>
                c.id === companyId ? (
                  <strong>selected</strong>
                ) : (
                  <button
                    type="button"
                    className="secondary"
                    aria-label={`Select ${c.name}`}
                    onClick={() => selectCompany(c.id)}
                  >
                    Select
                  </button>
                ),
            },
          ]}
        />
      </Section>
      {selected ? (
        <>
          <CompanyMembers companyId={selected.id} role={selected.role ?? 'owner'} onChanged={list.reload} />
          <CompanyLeave company={selected} role={selected.role ?? 'owner'} onGone={list.reload} />
        </>
      ) : null}
      <Section title="New Company">
        <Form
          submit="Create Company"
          onSubmit={async () => {
            const made = await post<Company>('/api/companies', { name });
            setName('');
            if (!companyId) selectCompany(made.id);
            list.reload();
          }}
        >
          <Field label="Company name" value={name} onChange={setName} hint="Letters, digits, spaces and . _ -" />
        </Form>
      </Section>
    </Page>
  );
}
