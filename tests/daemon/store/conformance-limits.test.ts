import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { storeImplementations } from '../../helpers/store-implementations.js';

/**
 * The failure ceiling's edges, against every LimitStore: the `max`-th consecutive failure (not the
 * one before) starts the lock-out, which lasts exactly `lockMs`; from its last millisecond on the
 * count starts again from zero. An off-by-one here either locks a user out one try early or
 * leaves a locked account at its old count, where the next wrong try locks it again at once.
 */
const RULE = { max: 10, lockMs: 900_000 };
const KEY = 'account|pwd:edge@example.com';

for (const [name, make] of Object.entries(storeImplementations)) {
  const test = suite(`store conformance, the failure ceiling at its edges: ${name}`);

  test('the 10th failure locks for exactly 15 minutes; then the count starts from zero', async () => {
    const { stores } = await make();
    const now = Date.parse('2026-01-15T12:00:00Z');
    for (let i = 0; i < 9; i++) await stores.limits.fail(KEY, now, RULE);
    assert.is(await stores.limits.lockedFor(KEY, now), null, '9 failures do not lock');
    assert.is(await stores.limits.failures(KEY, now), 9);
    await stores.limits.fail(KEY, now, RULE);
    assert.is(await stores.limits.lockedFor(KEY, now), RULE.lockMs, 'the 10th locks');
    assert.is(await stores.limits.lockedFor(KEY, now + RULE.lockMs - 1), 1, 'a millisecond before the end');
    const end = now + RULE.lockMs;
    assert.is(await stores.limits.lockedFor(KEY, end), null, 'over at its end');
    assert.is(await stores.limits.failures(KEY, end), 0, 'the count starts again');
    await stores.limits.fail(KEY, end, RULE);
    assert.is(await stores.limits.failures(KEY, end), 1);
    assert.is(await stores.limits.lockedFor(KEY, end), null, 'one failure after a lock-out does not lock again');
    await stores.close();
  });

  test('peek answers what hit would, and counts nothing', async () => {
    const { stores } = await make();
    const now = Date.parse('2026-01-15T12:00:00Z');
    const rules = [{ limit: 2, windowMs: 60_000 }];
    const key = 'mcp-tools|key_peek';
    assert.is(await stores.limits.peek(key, rules, now), null, 'nothing counted yet');
    for (let i = 0; i < 5; i++) await stores.limits.peek(key, rules, now);
    assert.is(await stores.limits.hit(key, rules, now), null, 'peeking used nothing up');
    assert.is(await stores.limits.hit(key, rules, now + 1_000), null);
    assert.is(await stores.limits.peek(key, rules, now + 2_000), 58_000, 'full: the wait hit would give');
    assert.is(await stores.limits.hit(key, rules, now + 2_000), 58_000);
    assert.is(await stores.limits.peek(key, rules, now + 60_000), null, 'the first attempt left the window');
    await stores.close();
  });

  test.run();
}
