import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { signToken, type TokenClaims } from '../../daemon/auth/tokens.js';
import { isoAt } from '../../daemon/clock.js';
import { createUser } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { codeNow, enableTotp } from '../helpers/totp.js';

/**
 * A correctly signed token is only as good as the row it names. These tokens are signed with the
 * deployment's own secret (as a mis-issued token, or one forged with a leaked key, would be) and
 * each breaks one binding between the token and its row. The attack cases never sign such tokens,
 * so removing any of these checks passed the suite.
 */
const test = suite('a signed token must agree with the row it names');
let t: TestApp;
test.before(async () => void (t = await createTestApp()));
test.after(async () => t?.close());

const claimsOf = (token: string): TokenClaims => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
const sign = (claims: Omit<TokenClaims, 'iat' | 'exp'>) =>
  signToken(t.deps.secrets.jwtSecret, claims, t.clock.now(), 3600_000);
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

test("a session token naming another user's session → 401", async () => {
  const a = await createUser(t);
  const b = await createUser(t);
  const token = sign({ ...claimsOf(a.token), sid: claimsOf(b.token).sid });
  assert.is((await t.get('/api/keys', bearer(token))).status, 401);
  assert.is((await t.get('/api/keys', a.auth)).status, 200, 'the control');
});

test('a full-session token naming an unverified session, or an unverified token naming a full one → 403', async () => {
  const pending = await createUser(t, { verified: false });
  const asFull = sign({ ...claimsOf(pending.token), typ: 'session' });
  assert.is((await t.get('/api/keys', bearer(asFull))).status, 403, 'the row is unverified');
  const full = await createUser(t);
  const asUnverified = sign({ ...claimsOf(full.token), typ: 'unverified' });
  assert.is((await t.get('/api/keys', bearer(asUnverified))).status, 403, 'the token is unverified');
});

test('a session whose user is gone → 401', async () => {
  const now = isoAt(t.clock.now());
  const id = t.deps.ids('ses');
  await t.deps.stores.sessions.create({
    id,
    user_id: 'usr_gone',
    kind: 'full',
    method: ['pwd'],
    created_at: now,
    last_seen_at: now,
    expires_at: isoAt(t.clock.now() + 3600_000),
    revoked_at: null,
    user_agent: null,
    ip: null,
  });
  const token = sign({ user_id: 'usr_gone', email: 'gone@example.com', sid: id, typ: 'session' });
  assert.is((await t.get('/api/me', bearer(token))).status, 401);
});

test("a partial token naming another user's pending login → 401, even with the right code", async () => {
  const login = async (u: Awaited<ReturnType<typeof createUser>>) =>
    (await t.post('/api/auth/login', { email: u.user.email, password: u.password })).body.partial_token as string;
  const a = await createUser(t);
  const { secret } = await enableTotp(t, a);
  const b = await createUser(t);
  await enableTotp(t, b);
  const theirs = claimsOf(await login(b)).sid;
  const token = sign({ ...claimsOf(await login(a)), sid: theirs });
  const res = await t.post('/api/auth/totp/login', { partial_token: token, code: codeNow(t, secret) });
  assert.is(res.status, 401, res.text);
});

test.run();
