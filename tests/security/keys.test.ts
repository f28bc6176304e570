import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { companyOwner } from '../proof/lib/accounts.js';
import { PAST_THROTTLES, securityModes, type Remote } from './remote.js';

/** SECURITY.md attack cases 14 to 18 (keys, tenants, tiers, bodies), against a real daemon process. */
for (const mode of securityModes()) {
  const test = suite(`SECURITY.md attack cases 14 to 18 (keys, tenants, tiers, bodies) (${mode.name})`);
  let r: Remote;
  test.before(async () => void (r = await mode.start()));
  test.after(async () => r?.stop());
  test.before.each(() => r.advance(PAST_THROTTLES));

  const sk = (key: string, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${key}`, ...extra });

  test('case 14: the old ak_ after a rotation and an sk_ after DELETE get 401 on their next call', async () => {
    const w = await companyOwner(r.daemon.url, r.dataDir, 'rotate@example.com');
    const first = (await r.app.post('/api/account/api-key', {}, w.owner.auth)).body.api_key;
    assert.is((await r.app.post('/api/mcp/validate', {}, sk(w.sk, { 'x-api-key': first }))).status, 200);
    assert.is((await r.app.post('/api/account/api-key', {}, w.owner.auth)).status, 201);
    assert.is((await r.app.post('/api/mcp/validate', {}, sk(w.sk, { 'x-api-key': first }))).status, 401);
    assert.is((await r.app.del(`/api/keys/${w.skId}`, w.owner.auth)).status, 200);
    assert.is((await r.app.post('/api/mcp/validate', {}, sk(w.sk))).status, 401);
  });

  test('case 15: an sk_ of Company A against Company B, and X-Company naming another user Company: 403', async () => {
    const a = await companyOwner(r.daemon.url, r.dataDir, 'tenant-a@example.com');
    const b = await companyOwner(r.daemon.url, r.dataDir, 'tenant-b@example.com');
    assert.is((await r.app.get('/api/agents', sk(a.sk, { 'x-company': b.company.id }))).status, 403);
    assert.is((await r.app.get('/api/agents', { ...a.owner.auth, 'x-company': b.company.id })).status, 403);
    assert.is((await r.app.get('/api/agents', sk(a.sk))).status, 200, 'the control: its own Company');
  });

  test('case 16: malformed keys (wrong prefix, bad checksum, wrong length) and a JWT in X-Api-Key: 401', async () => {
    const w = await companyOwner(r.daemon.url, r.dataDir, 'malformed@example.com');
    const flip = w.sk.slice(0, -1) + (w.sk.endsWith('A') ? 'B' : 'A');
    for (const bad of ['xk_' + w.sk.slice(3), flip, w.sk.slice(0, -3), w.sk + 'AAAA']) {
      assert.is((await r.app.post('/api/mcp/validate', {}, sk(bad))).status, 401, bad);
    }
    assert.is((await r.app.post('/api/mcp/validate', {}, sk(w.sk, { 'x-api-key': w.owner.token }))).status, 401);
  });

  test('case 17: a trial account creating a key gets 402; a bad key on a trial account gets 401', async () => {
    const trial = await r.signUpVerified('trial@example.com');
    const company = await r.app.post('/api/companies', { name: 'trial-co' }, trial.auth);
    const key = await r.app.post('/api/keys', { root: company.body?.id ?? 'trial-co', name: 'x' }, trial.auth);
    assert.is(key.status, 402, key.text);
    assert.is((await r.app.post('/api/mcp/validate', {}, sk('sk_' + 'A'.repeat(49)))).status, 401);
  });

  test('case 18: a body over the limit is a 413, not JSON is a 400/415 with a clear message, never a 500', async () => {
    const w = await companyOwner(r.daemon.url, r.dataDir, 'bodies@example.com');
    const big = await r.app.post('/api/auth/login', { email: 'x@example.com', password: 'p'.repeat(70 * 1024) });
    assert.is(big.status, 413);
    assert.is(big.body.code, 'payload_too_large');
    const huge = await r.app.post('/api/agents', { name: 'x'.repeat(1100 * 1024) }, w.tenant);
    assert.is(huge.status, 413);
    for (const [type, payload] of [
      ['text/plain', 'hello'],
      ['application/json', '{"a":'],
      ['application/json', 'nope'],
    ]) {
      const res = await fetch(`${r.daemon.url}/api/agents`, {
        method: 'POST',
        headers: { ...w.tenant, 'content-type': type! },
        body: payload,
      });
      assert.ok([400, 415].includes(res.status), `${type} ${payload}: ${res.status}`);
      const body = await res.json();
      assert.type(body.error, 'string');
      assert.type(body.code, 'string');
    }
  });

  test.run();
}
