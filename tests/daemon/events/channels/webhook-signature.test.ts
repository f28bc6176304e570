import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHmac } from 'node:crypto';
import { computeSignature, signDelivery, verifySignature } from '../../../../shared/webhook-signature.js';

const secret = 'whsec_test_secret';
const body = '{"text":"deploy finished","direct":false}';
const now = Date.parse('2026-01-15T12:00:00Z');
const t = Math.floor(now / 1000);

test('the scheme is t=<unix>,v1=hex(hmac-sha256(secret, "<t>.<body>"))', () => {
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  assert.is(computeSignature(secret, t, body), expected);
  assert.is(signDelivery(secret, body, now), `t=${t},v1=${expected}`);
});

test('a correct signature within the tolerance passes, with its timestamp', () => {
  assert.equal(
    verifySignature({ header: signDelivery(secret, body, now), secrets: [secret], rawBody: body, nowMs: now }),
    { ok: true, timestamp: t },
  );
  assert.ok(
    verifySignature({ header: signDelivery(secret, body, now - 299_000), secrets: [secret], rawBody: body, nowMs: now })
      .ok,
  );
  assert.ok(
    verifySignature({
      header: signDelivery(secret, Buffer.from(body), now),
      secrets: [secret],
      rawBody: Buffer.from(body),
      nowMs: now,
    }).ok,
  );
});

test('failures: missing, malformed, replayed, future, wrong secret, edited body', () => {
  const check = (header: string | undefined, over: { body?: string; secrets?: string[] } = {}) =>
    verifySignature({ header, secrets: over.secrets ?? [secret], rawBody: over.body ?? body, nowMs: now });
  assert.equal(check(undefined), { ok: false, reason: 'missing' });
  assert.equal(check('sha256=abc'), { ok: false, reason: 'malformed' });
  assert.equal(check(`t=${t}`), { ok: false, reason: 'malformed' });
  assert.equal(check(`t=${t},v1=zz`), { ok: false, reason: 'malformed' });
  assert.equal(check(`t=abc,v1=${'0'.repeat(64)}`), { ok: false, reason: 'malformed' });
  assert.equal(check(signDelivery(secret, body, now - 301_000)), { ok: false, reason: 'too_old' });
  assert.equal(check(signDelivery(secret, body, now + 301_000)), { ok: false, reason: 'in_future' });
  assert.equal(check(signDelivery('whsec_other', body, now)), { ok: false, reason: 'mismatch' });
  assert.equal(check(signDelivery(secret, body, now), { body: body.replace('finished', 'failed') }), {
    ok: false,
    reason: 'mismatch',
  });
  assert.equal(check(signDelivery(secret, body, now), { secrets: [] }), { ok: false, reason: 'mismatch' });
  // Re-stamping an old delivery with a fresh t breaks the HMAC, because t is signed.
  const old = signDelivery(secret, body, now - 3_600_000);
  assert.equal(check(old.replace(/^t=\d+/, `t=${t}`)), { ok: false, reason: 'mismatch' });
});

test('rotation: any v1 entry may match, and either of two secrets', () => {
  const a = signDelivery('whsec_old', body, now);
  const b = signDelivery(secret, body, now).split(',')[1];
  assert.ok(verifySignature({ header: `${a},${b}`, secrets: [secret], rawBody: body, nowMs: now }).ok);
  assert.ok(verifySignature({ header: a, secrets: [secret, 'whsec_old'], rawBody: body, nowMs: now }).ok);
  assert.ok(
    verifySignature({
      header: `${signDelivery(secret, body, now)},v0=legacy`,
      secrets: [secret],
      rawBody: body,
      nowMs: now,
    }).ok,
    'unknown schemes are ignored',
  );
});

// The tolerance is 300 s either way, inclusive: tests 1 s inside and far outside it pass with < and
// <= swapped at either end.
test('a timestamp exactly 300 s old or ahead passes; 301 s does not', () => {
  const check = (signedAtMs: number) =>
    verifySignature({ header: signDelivery(secret, body, signedAtMs), secrets: [secret], rawBody: body, nowMs: now });
  assert.ok(check(now - 300_000).ok);
  assert.ok(check(now + 300_000).ok);
  assert.equal(check(now - 301_000), { ok: false, reason: 'too_old' });
  assert.equal(check(now + 301_000), { ok: false, reason: 'in_future' });
});

test.run();
