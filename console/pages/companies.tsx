import { useState } from 'react';
import { get, post } from '../lib/api.js';
import { updateSession, useSession } from '../lib/session.js';
import { ErrorText, Field, Form, Page, Section, useLoad, when } from '../lib/ui.js';

export interface Company {
  id: string;
  name: string;
  created_at: string;
}

export const loadCompanies = () => get<{ companies: Company[] }>('/api/companies');

/** Companies: list, create, and choose the one the events pages work in (sent as X-Company). */
export function CompaniesPage() {
  const list = useLoad(loadCompanies);
  const { companyId } = useSession();
  const [name, setName] = useState('');
  return (
    <Page title="Companies">
      <Section title="Your Companies">
        <ErrorText error={list.error} />
        {list.data?.companies.length ? (
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Id</th>
                <th scope="col">Created</th>
                <th scope="col">Selected</th>
              </tr>
            </thead>
            <tbody>
              {list.data.companies.map((c) => (
                <tr key={c.id}>
                  <td>{c.name}</td>
                  <td>
                    <code>{c.id}</code>
                  </td>
                  <td>{when(c.created_at)}</td>
                  <td>
                    {c.id === companyId ? (
                      <strong>selected</strong>
                    ) : (
                      <button type="button" className="secondary" aria-label={`Select ${c.name}`} onClick={() => updateSession({ companyId: c.id })}>
                        Select
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : list.data ? (
          <p>No Company yet: create one.</p>
        ) : null}
      </Section>
      <Section title="New Company">
        <Form
          submit="Create Company"
          onSubmit={async () => {
            const made = await post<Company>('/api/companies', { name });
            setName('');
            if (!companyId) updateSession({ companyId: made.id });
            list.reload();
          }}
        >
          <Field label="Company name" value={name} onChange={setName} hint="Letters, digits, spaces and . _ -" />
        </Form>
      </Section>
    </Page>
  );
}
