import { resolveCompanyId } from '../../company.js';
import type { CliContext } from '../../context.js';
import { NotFoundError } from '../../errors.js';
import { memberListResponse, type MemberRow } from '../../../shared/schemas/members.js';

/** The people commands' shared steps: the Company (`--company`, else the current one) and a member by id or e-mail. */
export const companyPath = async (ctx: CliContext, company?: string) =>
  `/api/companies/${encodeURIComponent(await resolveCompanyId(ctx, company))}`;

export async function listMembers(ctx: CliContext, base: string): Promise<MemberRow[]> {
  return (await ctx.api().get(`${base}/members`, { schema: memberListResponse })).members;
}

export async function resolveMember(ctx: CliContext, base: string, who: string): Promise<MemberRow> {
  const members = await listMembers(ctx, base);
  const found =
    members.find((m) => m.user_id === who) ?? members.find((m) => m.email?.toLowerCase() === who.toLowerCase());
  if (!found) throw new NotFoundError(`no member '${who}' in this Company`, "list them with 'svc companies members'");
  return found;
}

/** The keys a removed member made, for the line that says they still work. */
export function describeKeys(keys: Array<{ id: string; name: string }>): string {
  return keys.map((k) => `${k.id} '${k.name}'`).join(', ');
}
