import type { Doc } from './doc.js';
import type { CompanyRecord, CompanyStore } from './tenancy-types.js';
import { StoreConflict } from './types.js';

export interface CompaniesData {
  companies: CompanyRecord[];
}

export const companiesDefaults = (): CompaniesData => ({ companies: [] });

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** Companies in their own document (companies.json). The name check and the insert are one update, so two racing creates cannot both win. */
export function createCompanyStore(doc: Doc<CompaniesData>): CompanyStore {
  return {
    create: (company) =>
      doc.update((data) => {
        if (data.companies.some((c) => c.owner_id === company.owner_id && sameName(c.name, company.name))) {
          throw new StoreConflict('company_name_taken', 'the owner has a Company with this name');
        }
        data.companies.push(company);
        return company;
      }),
    findById: (id) => doc.data.companies.find((c) => c.id === id),
    listByOwner: (ownerId) => doc.data.companies.filter((c) => c.owner_id === ownerId),
    list: () => [...doc.data.companies],
  };
}
