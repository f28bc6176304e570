import { Wallet } from 'ethers';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { isoAt } from '../../daemon/clock.js';
import { signToken } from '../../daemon/auth/tokens.js';
import { createUser } from '../helpers/accounts.js';
import { waitForMail } from '../helpers/mail.js';
import { signUp } from '../helpers/signup.js';
import { SoftAuthenticator } from '../helpers/soft-authenticator.js';
import { inviteCode, signInMessage } from '../helpers/siwe.js';
import { testAppModes, type TestApp, type TestResponse } from '../helpers/test-app.js';
import { codeNow, enableTotp } from '../helpers/totp.js';

/**
 * Lifetimes to the millisecond, on the fake clock. Tests that step a whole second (or ten minutes)
 * past an expiry pass whether a store compares with `<` or `<=`, so each row uses a secret at the
 * last moment it is good and another at the first moment it is not: an off-by-one in any store's
 * expiry check, or a default lifetime that drifts from SECURITY.md, fails its row.
 */
interface Lifetime {
  name: string;
  /** SECURITY.md's value (the test app keeps the defaults), and where it ends: `exclusive` (dead at
   * issue + ms) or `inclusive` (still good then). */
  ms: number;
  end: 'exclusive' | 'inclusive';
  /** Issues a fresh secret now; returns its use. */
  issue(t: TestApp): Promise<() => Promise<TestResponse>>;
  /** The answers while good and once over. */
  statuses: [number, number];
}

const linkTokenOf = async (t: TestApp, email: string) =>
  new URL((await waitForMail(t, email, (m) => m.link !== null)).link!).searchParams.get('token')!;

let n = 0;
const freshEmail = (t: TestApp) => `expiry-${t.clock.now()}-${++n}@example.com`;

const lifetimes: Lifetime[] = [
  {
    name: 'e-mailed code (verify): 10 min',
    ms: 10 * 60_000,
    end: 'exclusive',
    async issue(t) {
      const email = freshEmail(t);
      const { code } = await signUp(t, email);
      return () => t.post('/api/auth/verify', { email, code });
    },
    statuses: [200, 400],
  },
  {
    name: 'magic link: 10 min',
    ms: 10 * 60_000,
    end: 'exclusive',
    async issue(t) {
      const email = (await createUser(t)).user.email!;
      assert.is((await t.post('/api/auth/login/code/request', { email })).status, 200);
      const token = await linkTokenOf(t, email);
      return () => t.post('/api/auth/login/magic/consume', { token });
    },
    statuses: [200, 401],
  },
  {
    name: 'password-reset link: 30 min',
    ms: 30 * 60_000,
    end: 'exclusive',
    async issue(t) {
      const email = (await createUser(t)).user.email!;
      assert.is((await t.post('/api/auth/forgot-password', { email })).status, 200);
      const token = await linkTokenOf(t, email);
      return () => t.post('/api/auth/reset-password', { token, password: 'a brand new password 42' });
    },
    statuses: [200, 400],
  },
  {
    name: 'SIWE nonce: 10 min',
    ms: 10 * 60_000,
    end: 'exclusive',
    async issue(t) {
      const wallet = Wallet.createRandom();
      const up = await t.post('/api/auth/wallet/signup', {
        ...(await signInMessage(t, wallet)),
        invite_code: await inviteCode(t),
      });
      assert.is(up.status, 201, up.text);
      const { nonce } = (await t.post('/api/auth/wallet/nonce', { address: wallet.address })).body;
      // Signed when used, so only the nonce is old.
      return async () =>
        t.post('/api/auth/wallet/login', await signInMessage(t, wallet, (f) => void (f.nonce = nonce)));
    },
    statuses: [200, 401],
  },
  {
    name: 'WebAuthn login challenge: 5 min',
    ms: 5 * 60_000,
    end: 'exclusive',
    async issue(t) {
      const u = await createUser(t);
      const authenticator = new SoftAuthenticator();
      const register = await t.post('/api/auth/passkey/register-begin', { name: 'key' }, u.auth);
      const made = await t.post(
        '/api/auth/passkey/register-finish',
        { response: authenticator.register(register.body) },
        u.auth,
      );
      assert.is(made.status, 201, made.text);
      const begin = (await t.post('/api/auth/passkey/login-begin', {})).body;
      return () => t.post('/api/auth/passkey/login-finish', { response: authenticator.assert(begin) });
    },
    statuses: [200, 401],
  },
  {
    name: 'partial token (TOTP pending): 5 min',
    ms: 5 * 60_000,
    end: 'exclusive',
    async issue(t) {
      const u = await createUser(t);
      const { secret } = await enableTotp(t, u);
      const partial = (await t.post('/api/auth/login', { email: u.user.email, password: u.password })).body
        .partial_token;
      return () => t.post('/api/auth/totp/login', { partial_token: partial, code: codeNow(t, secret) });
    },
    statuses: [200, 401],
  },
  {
    // The row can end before its token does (a session capped by another's lifetime): the row's own
    // expiry is checked on every request, not only the token's `exp`.
    name: 'session row ending before its token: 1 min',
    ms: 60_000,
    end: 'exclusive',
    async issue(t) {
      const { user } = await createUser(t);
      const now = t.clock.now();
      const session = await t.deps.stores.sessions.create({
        id: t.deps.ids('ses'),
        user_id: user.id,
        kind: 'full',
        method: ['pwd'],
        created_at: isoAt(now),
        last_seen_at: isoAt(now),
        expires_at: isoAt(now + 60_000),
        revoked_at: null,
        user_agent: null,
        ip: null,
      });
      const claims = { user_id: user.id, email: user.email, sid: session.id, typ: 'session' as const };
      const token = signToken(t.deps.secrets.jwtSecret, claims, now, 3600_000);
      return () => t.get('/api/me', { authorization: `Bearer ${token}` });
    },
    statuses: [200, 401],
  },
  {
    name: 'recent login (for TOTP enrolment): 10 min, inclusive',
    ms: 10 * 60_000,
    end: 'inclusive',
    async issue(t) {
      const u = await createUser(t);
      return () => t.post('/api/auth/totp/enroll', {}, u.auth);
    },
    statuses: [200, 403],
  },
];

const modes = testAppModes();

for (const mode of modes) {
  const test = suite(`lifetimes end to the millisecond (${mode.name})`);
  let t: TestApp;
  test.before(async () => void (t = await mode.open()));
  test.after(async () => t?.close());
  test.before.each(() => t.clock.advance(3600_000));

  for (const row of lifetimes) {
    test(row.name, async () => {
      const lastGood = row.end === 'exclusive' ? row.ms - 1 : row.ms;
      for (const [age, status, label] of [
        [lastGood, row.statuses[0], 'last good moment'],
        [lastGood + 1, row.statuses[1], 'first moment over'],
      ] as const) {
        // A whole second, as a real token's `iat` and `exp` are: the row's end is then the token's.
        t.clock.advance((1000 - (t.clock.now() % 1000)) % 1000);
        const use = await row.issue(t);
        t.clock.advance(age);
        const res = await use();
        assert.is(res.status, status, `${label} (${age} ms): ${res.text}`);
      }
    });
  }
  test.run();
}
