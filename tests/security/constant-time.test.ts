import { createHash, scryptSync } from 'node:crypto';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { hashCode } from '../../daemon/auth/email-codes.js';
import { normalizePassword } from '../../daemon/auth/passwords.js';
import { hashRecoveryCode } from '../../daemon/auth/totp/totp-codes.js';
import { signDelivery } from '../../shared/webhook-signature.js';
import { createUser } from '../helpers/accounts.js';
import { comparedPair, recordTimingSafeEqual } from '../helpers/compare-spy.js';
import { createCompany } from '../helpers/keys.js';
import { waitForMail } from '../helpers/mail.js';
import { signUp } from '../helpers/signup.js';
import { testAppModes, type TestApp, type TestResponse } from '../helpers/test-app.js';
import { codeNow, enableTotp } from '../helpers/totp.js';

/**
 * Every place svc compares a secret goes through crypto.timingSafeEqual, so the answer time does not
 * tell an attacker how much of a guess was right. Each row drives the real route once with a wrong
 * secret and once with the right one, and checks that timingSafeEqual compared what the site derives
 * from the right secret with what it derives from the one sent, and gave the route's answer: a site
 * changed to `===` or Buffer.equals makes its row fail. A new compare site is one more row. (Secrets
 * found by their hash in an index, such as keys and link tokens, are in hash-lookups.test.ts.)
 */
interface Site {
  name: string;
  arrange(t: TestApp): Promise<{
    /** Sends one request carrying `secret` (a whole secret, or the part of one the site compares). */
    send(secret: string): Promise<TestResponse>;
    right: string;
    wrong: string;
    /** What the site hands to timingSafeEqual for a secret. */
    derive(secret: string): Buffer;
    /** The answers to the wrong and the right secret. */
    statuses: [number, number];
  }>;
}

const bytes = (s: string) => Buffer.from(s, 'latin1');
const hex = (s: string) => Buffer.from(s, 'hex');
const sha256 = (s: string) => createHash('sha256').update(s).digest();
/** The same string with its first character changed (same length, so the compare is reached). */
const flipFirst = (s: string, to = 'A') => (s[0] === to ? 'B' : to) + s.slice(1);
const withSignature = (jwt: string, sig: string) => jwt.split('.').slice(0, 2).concat(sig).join('.');
/** A six-digit code that is none of `taken`. */
const otherCode = (taken: string[]) => ['000000', '111111', '222222', '333333'].find((c) => !taken.includes(c))!;

const partialLogin = async (t: TestApp, email: string, password: string) => {
  const res = await t.post('/api/auth/login', { email, password });
  assert.is(res.status, 200, res.text);
  return res.body.partial_token as string;
};

const sites: Site[] = [
  {
    name: 'JWT signature, on a session route (user guard)',
    async arrange(t) {
      const u = await createUser(t);
      const right = u.token.split('.')[2]!;
      const send = (sig: string) => t.get('/api/me', { authorization: `Bearer ${withSignature(u.token, sig)}` });
      return { send, right, wrong: flipFirst(right), derive: bytes, statuses: [401, 200] };
    },
  },
  {
    name: 'JWT signature, of a partial token (TOTP login)',
    async arrange(t) {
      const u = await createUser(t);
      const { secret } = await enableTotp(t, u);
      const partial = await partialLogin(t, u.user.email!, u.password);
      const right = partial.split('.')[2]!;
      const send = (sig: string) =>
        t.post('/api/auth/totp/login', { partial_token: withSignature(partial, sig), code: codeNow(t, secret) });
      return { send, right, wrong: flipFirst(right), derive: bytes, statuses: [401, 200] };
    },
  },
  {
    name: 'e-mailed code, on verify (HMAC of the code)',
    async arrange(t) {
      const email = `ct-verify-${t.clock.now()}@example.com`;
      const { code } = await signUp(t, email);
      return {
        send: (c) => t.post('/api/auth/verify', { email, code: c }),
        right: code,
        wrong: otherCode([code]),
        derive: (c) => hex(hashCode(t.deps.secrets.codeKey, 'verify', email, c)),
        statuses: [400, 200],
      };
    },
  },
  {
    name: 'e-mailed code, on login (HMAC of the code)',
    async arrange(t) {
      const email = (await createUser(t)).user.email!;
      assert.is((await t.post('/api/auth/login/code/request', { email })).status, 200);
      const code = (await waitForMail(t, email, (m) => m.code !== null)).code!;
      return {
        send: (c) => t.post('/api/auth/login/code/consume', { email, code: c }),
        right: code,
        wrong: otherCode([code]),
        derive: (c) => hex(hashCode(t.deps.secrets.codeKey, 'login', email, c)),
        statuses: [401, 200],
      };
    },
  },
  {
    name: 'password, on login (scrypt hash)',
    async arrange(t) {
      const u = await createUser(t);
      const [, N, r, p, salt] = (await t.deps.stores.users.findById(u.user.id))!.password_hash!.split('$');
      const { maxmem } = t.deps.config.auth.passwordHash;
      return {
        send: (password) => t.post('/api/auth/login', { email: u.user.email, password }),
        right: u.password,
        wrong: `${u.password} but wrong`,
        derive: (pw) =>
          scryptSync(normalizePassword(pw), Buffer.from(salt!, 'base64'), 32, { N: +N!, r: +r!, p: +p!, maxmem }),
        statuses: [401, 200],
      };
    },
  },
  {
    name: 'TOTP code',
    async arrange(t) {
      const u = await createUser(t);
      const { secret } = await enableTotp(t, u);
      const code = codeNow(t, secret);
      return {
        send: async (c) =>
          t.post('/api/auth/totp/login', { partial_token: await partialLogin(t, u.user.email!, u.password), code: c }),
        right: code,
        wrong: otherCode([-1, 0, 1].map((step) => codeNow(t, secret, step))),
        derive: bytes,
        statuses: [401, 200],
      };
    },
  },
  {
    name: 'TOTP recovery code (HMAC of the code)',
    async arrange(t) {
      const u = await createUser(t);
      const { recoveryCodes } = await enableTotp(t, u);
      return {
        send: async (c) =>
          t.post('/api/auth/totp/login', { partial_token: await partialLogin(t, u.user.email!, u.password), code: c }),
        right: recoveryCodes[0]!,
        wrong: 'zzzzz-zzzzz',
        derive: (c) => hex(hashRecoveryCode(t.deps.secrets.codeKey, c)),
        statuses: [401, 200],
      };
    },
  },
  {
    name: 'operator token (SHA-256 of each side)',
    async arrange(t) {
      const right = t.operator.authorization!.slice('Bearer '.length);
      const send = (token: string) => t.post('/api/dev/invites', {}, { authorization: `Bearer ${token}` });
      return { send, right, wrong: flipFirst(right), derive: sha256, statuses: [401, 201] };
    },
  },
  {
    name: 'inbound webhook signature (HMAC of the time, the delivery id and the body)',
    async arrange(t) {
      const u = await createUser(t, { tier: 'company' });
      const company = await createCompany(t, u);
      const made = await t.post('/api/channels', { name: 'ci' }, { ...u.auth, 'x-company': company.id });
      assert.is(made.status, 201, made.text);
      const raw = JSON.stringify({ status: 'red' });
      // One delivery id for both tries: v2 signs it, and a refused delivery is not remembered.
      const deliveryId = 'ct-1';
      const header = signDelivery({ secret: made.body.secret, deliveryId, rawBody: raw, nowMs: t.clock.now() });
      const right = /v2=([0-9a-f]+)/.exec(header)![1]!;
      const send = (sig: string) =>
        t.request({
          method: 'POST',
          url: '/api/webhooks/ci',
          payload: raw,
          headers: {
            'content-type': 'application/json',
            'x-company': company.id,
            'x-svc-delivery': deliveryId,
            'x-svc-signature': header.replace(right, sig),
          },
        });
      return { send, right, wrong: flipFirst(right, 'a'), derive: hex, statuses: [401, 200] };
    },
  },
];

const modes = testAppModes();

for (const mode of modes) {
  const test = suite(`secrets are compared with crypto.timingSafeEqual (${mode.name})`);
  let t: TestApp;
  test.before(async () => void (t = await mode.open()));
  test.after(async () => t?.close());
  // Each row starts past every throttle window the rows before it may have used.
  test.before.each(() => t.clock.advance(3600_000));

  for (const site of sites) {
    test(site.name, async () => {
      const { send, right, wrong, derive, statuses } = await site.arrange(t);
      for (const [secret, status] of [
        [wrong, statuses[0]],
        [right, statuses[1]],
      ] as const) {
        const { result: res, calls } = await recordTimingSafeEqual(() => send(secret));
        assert.is(res.status, status, res.text);
        assert.ok(
          comparedPair(calls, [derive(right), derive(secret)], secret === right),
          `${secret === right ? 'right' : 'wrong'} secret: timingSafeEqual never compared what the site derives from it (${calls.length} other calls)`,
        );
      }
    });
  }
  test.run();
}
