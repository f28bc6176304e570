import type { BenchCase, BenchEnv } from '../harness.js';

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

/** Authenticated GET /api/me: JWT verify + the session row + the user, on every request. */
const me: BenchCase = {
  name: 'GET /api/me',
  async run(env) {
    const token = await loginBenchUser(env, 'bench-me@example.com', 'a benchmark password');
    const { value, baseline, cpuRatio } = await env.compare(env.daemon.url + '/api/me', {
      headers: { authorization: `Bearer ${token}` },
    });
    return [
      { name: 'GET /api/me (JWT, session row checked)', value, unit: 'req/s', baseline, cpuRatio, target: '>= 0.6' },
    ];
  },
};
export default me;
