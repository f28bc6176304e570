import { companyRefListResponse } from '../shared/schemas/companies.js';
import type { CliContext } from './context.js';
import { NotFoundError, UsageError } from './errors.js';

import { companyKey } from './credentials/profile-scope.js';

/** The config-file key of the current Company of a profile scope (`svc companies use <name>` sets it). */
export const currentCompanyKey = companyKey;

export function saveCurrentCompany(ctx: CliContext, company: { id: string; name: string }): void {
  ctx.config().set(currentCompanyKey(ctx.scope), company);
}

/**
 * The Company a runtime command acts on, as an id for `X-Company`: `--company <name or id>`, else
 * the saved current one. A name is looked up in the caller's Companies.
 */
export async function resolveCompanyId(ctx: CliContext, flag?: string): Promise<string> {
  const wanted = flag ?? ctx.config().get<{ id: string }>(currentCompanyKey(ctx.scope))?.id;
  if (!wanted)
    throw new UsageError('no Company selected', "pass --company <name>, or run 'svc companies use <name>' once");
  const { companies } = await ctx.api().get('/api/companies', { schema: companyRefListResponse });
  const found = companies.find((c) => c.id === wanted) ?? companies.find((c) => c.name === wanted);
  if (!found) throw new NotFoundError(`no Company '${wanted}' among yours`, "list them with 'svc companies list'");
  return found.id;
}

export async function companyHeaders(ctx: CliContext, flag?: string): Promise<Record<string, string>> {
  return { 'X-Company': await resolveCompanyId(ctx, flag) };
}
