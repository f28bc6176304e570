import { get } from './api.js';
import { getSession, updateSession } from './session.js';

/**
 * The Company the runtime pages work in, chosen without asking where that is possible: the one
 * this browser last used for this account, else the only one there is. The id is remembered in
 * localStorage per account; unlike the session token it grants nothing, so nothing leaks by it.
 */
let userId: string | null = null;
const storageKey = (user: string) => `svc-console.company.${user}`;

export async function chooseCompany(user: string): Promise<void> {
  userId = user;
  if (getSession().companyId) return;
  const { companies } = await get<{ companies: { id: string }[] }>('/api/companies');
  const remembered = readRemembered(user);
  const pick = companies.find((c) => c.id === remembered) ?? (companies.length === 1 ? companies[0] : undefined);
  if (pick && getSession().token) updateSession({ companyId: pick.id });
}

/** Selecting a Company (Companies page, or the first one created) also makes it this account's default here. */
export function selectCompany(id: string): void {
  updateSession({ companyId: id });
  if (!userId) return;
  try {
    localStorage.setItem(storageKey(userId), id);
  } catch {
    // Storage off (a private window's policy): the choice lasts for this page only.
  }
}

function readRemembered(user: string): string | null {
  try {
    return localStorage.getItem(storageKey(user));
  } catch {
    return null;
  }
}
