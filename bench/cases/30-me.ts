import { floorRow, type BenchCase, type BenchEnv } from '../harness.js';

/** Signs a user up and verifies it through the routes, with the invite and the code from the operator surface. */
export async function loginBenchUser(env: BenchEnv, email: string, password: string): Promise<string> {
  const op = { authorization: `Bearer ${env.daemon.operatorToken}` };
  const invite = await env.call('POST', '/api/dev/invites', {}, op);
  const signup = await env.call('POST', '/api/auth/signup', { email, password, invite_code: invite.body.code });
  if (signup.status !== 200) throw new Error(`set-up: signup answered ${signup.status}`);
  const mail = await env.call('GET', `/api/dev/mail?to=${encodeURIComponent(email)}`, undefined, op);
  const code = mail.body.mail.at(-1)?.code;
  const verify = await env.call('POST', '/api/auth/verify', { email, code });
  if (verify.status !== 200) throw new Error(`set-up: verify answered ${verify.status}`);
  return verify.body.token;
}

/**
 * Authenticated GET /api/me: JWT verify + the session row + the user, on every request. Its target
 * is the cpu ratio to the floor app (the same token check, one row lookup and the same answer, with
 * no chain around them); the ratio to bare Koa is printed too.
 */
const me: BenchCase = {
  name: 'GET /api/me',
  async run(env) {
    const token = await loginBenchUser(env, 'bench-me@example.com', 'a benchmark password');
    const request = { headers: { authorization: `Bearer ${token}` } };
    const answer = await env.floor.capture('/api/me', request);
    const { id, session } = answer.body as { id: string; session: { id: string; expires_at: string } };
    // The row holds what the daemon's guard checks; it answered 200, so the session is live.
    const row = { user_id: id, expires_at: session.expires_at, revoked_at: null, answer };
    await env.floor.mirror('/api/me', request, { sessions: { [session.id]: row } });
    const { bareKoa, floor } = await env.compareWithFloor('/api/me', request);
    return [{ name: 'GET /api/me (JWT, session row checked)', unit: 'req/s', ...bareKoa }, floorRow(floor, '>= 0.9')];
  },
};
export default me;
