import type { AssignableRole } from '../../shared/roles.js';
import type { Tier } from '../../shared/wire.js';
import { createUser, type TestUser } from './accounts.js';
import type { TestApp, TestResponse } from './test-app.js';

/** An invitation made through the routes, and the code its captured e-mail carries. */
export async function invite(
  t: TestApp,
  by: TestUser,
  companyId: string,
  email: string,
  role: AssignableRole,
): Promise<{ res: TestResponse; code: string }> {
  const res = await t.post(`/api/companies/${companyId}/invitations`, { email, role }, by.auth);
  if (res.status !== 201) throw new Error(`invite: ${res.status} ${res.text}`);
  const mail = (await t.deps.stores.outbox.list({ to: email })).at(-1);
  if (!mail?.code) throw new Error(`invite: no mail with a code to ${email}`);
  return { res, code: mail.code };
}

/** A new verified user who joined the Company in `role` through an invitation from `by`. */
export async function joinAs(
  t: TestApp,
  by: TestUser,
  companyId: string,
  role: AssignableRole,
  options: { tier?: Tier; via?: TestApp } = {},
): Promise<TestUser> {
  const user = await createUser(t, { tier: options.tier ?? 'trial' });
  const { code } = await invite(t, by, companyId, user.user.email!, role);
  const accepted = await (options.via ?? t).post('/api/invitations/accept', { code }, user.auth);
  if (accepted.status !== 200) throw new Error(`joinAs: ${accepted.status} ${accepted.text}`);
  return user;
}

export const patch = (t: TestApp, url: string, body: unknown, headers: Record<string, string>) =>
  t.request({
    method: 'PATCH',
    url,
    headers: { 'content-type': 'application/json', ...headers },
    payload: JSON.stringify(body),
  });
