import * as assert from 'uvu/assert';
import type { TestApp } from './test-app.js';
import { waitForMail } from './mail.js';

export const GOOD_PASSWORD = 'correct horse battery staple';

/** A fresh invite from the operator surface. */
export async function newInvite(t: TestApp): Promise<string> {
  const res = await t.post('/api/dev/invites', {}, t.operator);
  assert.is(res.status, 201);
  return res.body.code;
}

/** Signs `email` up through the routes; returns the unverified token and the e-mailed code. */
export async function signUp(
  t: TestApp,
  email: string,
  password = GOOD_PASSWORD,
): Promise<{ token: string; code: string }> {
  const res = await t.post('/api/auth/signup', { email, password, invite_code: await newInvite(t) });
  assert.is(res.status, 200, JSON.stringify(res.body));
  const mail = await waitForMail(t, email, (m) => m.code !== null);
  return { token: res.body.token, code: mail.code! };
}

/** Signup then verify: a verified account with a full session token. */
export async function signUpVerified(
  t: TestApp,
  email: string,
  password = GOOD_PASSWORD,
): Promise<{ token: string; auth: Record<string, string> }> {
  const { code } = await signUp(t, email, password);
  const res = await t.post('/api/auth/verify', { email, code });
  assert.is(res.status, 200, JSON.stringify(res.body));
  return { token: res.body.token, auth: { authorization: `Bearer ${res.body.token}` } };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
