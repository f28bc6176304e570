import { randomBytes } from 'node:crypto';
import { Wallet } from 'ethers';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { hashLinkToken } from '../../daemon/auth/email-codes.js';
import { hashInviteCode } from '../../daemon/auth/invite-codes.js';
import { hashOneTime } from '../../daemon/auth/one-time.js';
import { hashKey } from '../../daemon/access/key-material.js';
import { formatKey } from '../../shared/keys.js';
import { createUser } from '../helpers/accounts.js';
import { createCompany, createSecretKey, rotateAccountKey } from '../helpers/keys.js';
import { waitForMail } from '../helpers/mail.js';
import { GOOD_PASSWORD, newInvite } from '../helpers/signup.js';
import { inviteCode, signInMessage } from '../helpers/siwe.js';
import { testAppModes, type TestApp, type TestResponse } from '../helpers/test-app.js';

/**
 * Secrets of 80 bits or more (keys, link tokens, invite codes, SIWE nonces) are not compared: they
 * are found by their SHA-256 in an index. What keeps them safe from timing is that the secret itself
 * never reaches a lookup or a compare, only its hash does: the index's timing can then only say
 * something about a hash, never about the secret behind it, and a lookup-by-hash needs nothing
 * constant-time (constant-time.test.ts has the secrets that are compared). Each row drives
 * the real route with a wrong and the right secret and checks what the store was asked for: the
 * hash of the secret sent, and never the secret.
 */
interface Lookup {
  name: string;
  arrange(t: TestApp): Promise<{
    /** The store object and the method the secret is looked up through. */
    store: object;
    method: string;
    send(secret: string): Promise<TestResponse>;
    right: string;
    wrong: string;
    /** What the store must be asked for. */
    hash(secret: string): string;
    /** The answers to the wrong and the right secret. */
    statuses: [number, number];
  }>;
}

const randomToken = () => randomBytes(32).toString('base64url');

const linkTokenOf = async (t: TestApp, email: string) =>
  new URL((await waitForMail(t, email, (m) => m.link !== null)).link!).searchParams.get('token')!;

const keyOwner = async (t: TestApp) => {
  const u = await createUser(t, { tier: 'company' });
  const { key } = await createSecretKey(t, u, (await createCompany(t, u)).id);
  return { u, key };
};

const lookups: Lookup[] = [
  {
    name: 'secret key (sk_)',
    async arrange(t) {
      const { key } = await keyOwner(t);
      return {
        store: t.deps.stores.keys,
        method: 'findSecretKeyWithOwner',
        send: (sk) => t.post('/api/mcp/validate', undefined, { authorization: `Bearer ${sk}` }),
        right: key,
        wrong: formatKey('secret', randomBytes(32)),
        hash: hashKey,
        statuses: [401, 200],
      };
    },
  },
  {
    name: 'account key (ak_)',
    async arrange(t) {
      const { u, key } = await keyOwner(t);
      return {
        store: t.deps.stores.keys,
        method: 'findAccountKeyByHash',
        send: (ak) => t.post('/api/mcp/validate', undefined, { authorization: `Bearer ${key}`, 'x-api-key': ak }),
        right: await rotateAccountKey(t, u),
        wrong: formatKey('account', randomBytes(32)),
        hash: hashKey,
        statuses: [401, 200],
      };
    },
  },
  {
    name: 'magic-link token',
    async arrange(t) {
      const email = (await createUser(t)).user.email!;
      assert.is((await t.post('/api/auth/login/code/request', { email })).status, 200);
      return {
        store: t.deps.stores.codes,
        method: 'consumeLink',
        send: (token) => t.post('/api/auth/login/magic/consume', { token }),
        right: await linkTokenOf(t, email),
        wrong: randomToken(),
        hash: hashLinkToken,
        statuses: [401, 200],
      };
    },
  },
  {
    name: 'password-reset token',
    async arrange(t) {
      const email = (await createUser(t)).user.email!;
      assert.is((await t.post('/api/auth/forgot-password', { email })).status, 200);
      return {
        store: t.deps.stores.codes,
        method: 'consumeLink',
        send: (token) => t.post('/api/auth/reset-password', { token, password: 'a brand new password 42' }),
        right: await linkTokenOf(t, email),
        wrong: randomToken(),
        hash: hashLinkToken,
        statuses: [400, 200],
      };
    },
  },
  {
    name: 'invite code',
    async arrange(t) {
      let n = 0;
      return {
        store: t.deps.stores.invites,
        method: 'find',
        send: (invite_code) =>
          t.post('/api/auth/signup', {
            email: `invited-${t.clock.now()}-${++n}@example.com`,
            password: GOOD_PASSWORD,
            invite_code,
          }),
        right: await newInvite(t),
        wrong: 'AAAA-BBBB-CCCC-DDDD',
        hash: hashInviteCode,
        statuses: [400, 200],
      };
    },
  },
  {
    name: 'SIWE nonce',
    async arrange(t) {
      const wallet = Wallet.createRandom();
      const up = await t.post('/api/auth/wallet/signup', {
        ...(await signInMessage(t, wallet)),
        invite_code: await inviteCode(t),
      });
      assert.is(up.status, 201, up.text);
      const nonce = await t.post('/api/auth/wallet/nonce', { address: wallet.address });
      return {
        store: t.deps.stores.challenges,
        method: 'consume',
        send: async (secret) =>
          t.post('/api/auth/wallet/login', await signInMessage(t, wallet, (f) => void (f.nonce = secret))),
        right: nonce.body.nonce as string,
        wrong: randomBytes(12).toString('hex'),
        hash: (secret) => hashOneTime('siwe_nonce', secret),
        statuses: [401, 200],
      };
    },
  },
];

/** Replaces `store[method]` with a recorder of its arguments until `run` settles. */
async function recordArguments<T>(store: object, method: string, run: () => Promise<T>) {
  const target = store as Record<string, (...args: unknown[]) => unknown>;
  const real = target[method]!;
  const seen: unknown[][] = [];
  target[method] = (...args) => (seen.push(args), real.apply(store, args));
  try {
    return { result: await run(), seen };
  } finally {
    target[method] = real;
  }
}

const modes = testAppModes();

for (const mode of modes) {
  const test = suite(`secrets found by their hash never reach the store themselves (${mode.name})`);
  let t: TestApp;
  test.before(async () => void (t = await mode.open()));
  test.after(async () => t?.close());
  test.before.each(() => t.clock.advance(3600_000));

  for (const row of lookups) {
    test(row.name, async () => {
      const { store, method, send, right, wrong, hash, statuses } = await row.arrange(t);
      for (const [secret, status] of [
        [wrong, statuses[0]],
        [right, statuses[1]],
      ] as const) {
        const { result: res, seen } = await recordArguments(store, method, () => send(secret));
        assert.is(res.status, status, res.text);
        const asked = seen.flat().filter((a): a is string => typeof a === 'string');
        assert.ok(asked.includes(hash(secret)), `${method} was not asked for the hash of the secret: ${asked}`);
        assert.not.ok(
          asked.some((a) => a.includes(secret)),
          `${method} was handed the secret itself`,
        );
      }
    });
  }
  test.run();
}
