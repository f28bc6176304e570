import type { BenchCase, BenchEnv } from '../harness.js';

/**
 * Secret-key-authenticated `POST /api/mcp/validate` (format check, SHA-256, key lookup, user and
 * Company lookup, tier gate) against a bare Koa hello-world. Target: >= 0.6 of bare Koa.
 *
 * Set-up goes through the public routes: an invite (operator), signup, the e-mailed code, verify
 * (issue 3's routes; the bench daemon runs with --default-tier company), then a Company and a key.
 */
const mcpValidate: BenchCase = {
  name: 'POST /api/mcp/validate',
  async run(env) {
    const secretKey = await createSecretKey(env);
    const baseline = await env.measure(env.baseline.url + '/');
    const value = await env.measure(env.daemon.url + '/api/mcp/validate', { method: 'POST', headers: { authorization: `Bearer ${secretKey}` } });
    return [{ name: 'POST /api/mcp/validate (sk_ key)', value, unit: 'req/s', baseline, target: '>= 0.6' }];
  },
};
export default mcpValidate;

async function createSecretKey(env: BenchEnv): Promise<string> {
  const operator = { authorization: `Bearer ${env.daemon.operatorToken}` };
  const email = `bench-${Date.now()}@example.com`;
  const password = 'bench password that is long enough';
  const invite = await expect(env.call('POST', '/api/dev/invites', {}, operator), 'invite');
  await expect(env.call('POST', '/api/auth/signup', { email, password, invite_code: invite.code }), 'signup');
  const mail = await expect(env.call('GET', `/api/dev/mail?to=${encodeURIComponent(email)}`, undefined, operator), 'mail');
  const code = [...mail.mail].reverse().find((m: { code: string | null }) => m.code)?.code;
  if (!code) throw new Error('set-up failed: no verification code was mailed');
  const { token } = await expect(env.call('POST', '/api/auth/verify', { email, code }), 'verify');
  const auth = { authorization: `Bearer ${token}` };
  const company = await expect(env.call('POST', '/api/companies', { name: 'Bench Co' }, auth), 'company');
  const key = await expect(env.call('POST', '/api/keys', { root: company.id, name: 'bench' }, auth), 'key');
  return key.secret_key;
}

async function expect(res: Promise<{ status: number; body: any }>, step: string): Promise<any> {
  const { status, body } = await res;
  if (status >= 300) throw new Error(`set-up failed at ${step}: ${status} ${JSON.stringify(body)}`);
  return body;
}
