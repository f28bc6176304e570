import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isMainThread } from 'node:worker_threads';
import { configureHashPool, DEFAULT_HASH_POOL, hashPassword, verifyPassword } from '../../../daemon/auth/passwords.js';
import { createHashPool } from '../../../daemon/auth/hash-pool.js';
import { createUser } from '../../helpers/accounts.js';
import { createTestApp } from '../../helpers/test-app.js';

const CHEAP = { N: 2 ** 10, r: 8, p: 1, maxmem: 32 * 1024 * 1024 };

test('hashes made in the worker pool verify, and a wrong password does not', async () => {
  assert.ok(isMainThread);
  const stored = await hashPassword('correct horse battery staple', CHEAP);
  assert.ok(await verifyPassword('correct horse battery staple', stored, CHEAP.maxmem));
  assert.not.ok(await verifyPassword('wrong horse battery staple', stored, CHEAP.maxmem));
});

test('the pool runs at most `threads` jobs at once and refuses past `queue` waiting jobs', async () => {
  const pool = createHashPool({ threads: 1, queue: 2 });
  const job = { password: 'x', salt: Buffer.alloc(16), keyLength: 32, ...CHEAP, N: 2 ** 14 };
  const jobs = Array.from({ length: 6 }, () =>
    pool.derive(job).then(
      () => 'ok',
      (err) => err.constructor.name,
    ),
  );
  assert.equal(pool.load(), { running: 1, waiting: 2 });
  assert.equal((await Promise.all(jobs)).sort(), ['PoolBusy', 'PoolBusy', 'PoolBusy', 'ok', 'ok', 'ok']);
  await pool.close();
});

// Logins must not queue without bound on libuv's pool, where they would starve file syncs and memory.
test('logins past the hashing queue get 429 with Retry-After (known and unknown e-mails alike), never a 500', async () => {
  configureHashPool({ threads: 1, queue: 1 });
  try {
    const t = await createTestApp({ config: { auth: { passwordHash: { ...CHEAP, N: 2 ** 14 } } } });
    const u = await createUser(t);
    const emails = [
      u.user.email!,
      'nobody@example.com',
      u.user.email!,
      'nobody@example.com',
      u.user.email!,
      'nobody@example.com',
    ];
    const answers = await Promise.all(
      emails.map((email) => t.post('/api/auth/login', { email, password: u.password })),
    );
    const busy = answers.filter((r) => r.status === 429);
    assert.ok(busy.length >= 2, answers.map((r) => r.status).join(','));
    for (const r of busy) {
      assert.is(r.body.code, 'rate_limited');
      assert.ok(Number(r.headers['retry-after']) >= 1);
    }
    assert.ok(
      answers.every((r) => [200, 401, 429].includes(r.status)),
      answers.map((r) => r.status).join(','),
    );
    assert.ok(
      answers.some((r) => r.status === 200),
      'the first login in line gets through',
    );
  } finally {
    configureHashPool(DEFAULT_HASH_POOL);
  }
});

test.run();
