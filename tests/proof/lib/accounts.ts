import { bearer, call, expectStatus, operatorHeaders } from './client.js';

export const PROOF_PASSWORD = 'proof password 1234';

export interface Account {
  email: string;
  token: string;
  auth: Record<string, string>;
}

/**
 * A verified account made the way a user makes one, over HTTP: an operator invite, signup, the
 * code from the captured mail, verify. `tier` is then set through the operator surface.
 */
export async function signUpVerified(url: string, dataDir: string, email: string, tier?: string): Promise<Account> {
  const op = operatorHeaders(dataDir);
  const invite = expectStatus(await call(url, '/api/dev/invites', { method: 'POST', headers: op }), 201, 'invite').body
    .code;
  expectStatus(
    await call(url, '/api/auth/signup', { body: { email, password: PROOF_PASSWORD, invite_code: invite } }),
    200,
    `signup ${email}`,
  );
  const code = await mailedCode(url, dataDir, email);
  const verified = expectStatus(await call(url, '/api/auth/verify', { body: { email, code } }), 200, `verify ${email}`);
  if (tier)
    expectStatus(await call(url, '/api/dev/tier', { headers: op, body: { email, tier } }), 200, `tier ${email}`);
  return { email, token: verified.body.token, auth: bearer(verified.body.token) };
}

/** The newest 6-digit code e-mailed to `email` (polls the captured mail for up to 10 s). */
export async function mailedCode(url: string, dataDir: string, email: string, after = 0): Promise<string> {
  const op = operatorHeaders(dataDir);
  for (let i = 0; i < 200; i++) {
    const mail = (await call(url, `/api/dev/mail?to=${encodeURIComponent(email)}`, { headers: op })).body?.mail ?? [];
    const found = mail.filter((m: { code: string | null }) => m.code).slice(after);
    if (found.length > 0) return found.at(-1).code;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no code mailed to ${email}`);
}

/** A company-tier owner with a Company and a secret key: what runtime and MCP calls need. */
export async function companyOwner(url: string, dataDir: string, email: string) {
  const owner = await signUpVerified(url, dataDir, email, 'company');
  const company = expectStatus(
    await call(url, '/api/companies', {
      headers: owner.auth,
      body: { name: `co-${Math.random().toString(36).slice(2, 8)}` },
    }),
    201,
    'company',
  ).body;
  const key = expectStatus(
    await call(url, '/api/keys', { headers: owner.auth, body: { root: company.id, name: 'proof' } }),
    201,
    'key',
  ).body;
  const tenant = { ...owner.auth, 'x-company': company.id };
  return {
    owner,
    company: company as { id: string; name: string },
    sk: key.secret_key as string,
    skId: key.id as string,
    tenant,
  };
}
