import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHmac } from 'node:crypto';
import {
  computeSignature,
  computeSignatureV1,
  signDelivery,
  signDeliveryV1,
  V1_SUNSET,
  verifySignature,
} from '../../../../shared/webhook-signature.js';

const secret = 'whsec_test_secret';
const body = '{"text":"deploy finished","direct":false}';
const id = 'dlv_42';
const now = Date.parse('2026-01-15T12:00:00Z');
const t = Math.floor(now / 1000);
const sign = (over: { secret?: string; deliveryId?: string; rawBody?: string | Buffer; nowMs?: number } = {}) =>
  signDelivery({ secret, deliveryId: id, rawBody: body, nowMs: now, ...over });
const check = (
  header: string | undefined,
  over: { body?: string | Buffer; secrets?: string[]; deliveryId?: string; nowMs?: number } = {},
) =>
  verifySignature({
    header,
    secrets: over.secrets ?? [secret],
    deliveryId: 'deliveryId' in over ? over.deliveryId : id,
    rawBody: over.body ?? body,
    nowMs: over.nowMs ?? now,
  });

test('v2 is t=<unix>,v2=hex(hmac-sha256(secret, "v2.<t>.<delivery id>\\n<body>"))', () => {
  const expected = createHmac('sha256', secret).update(`v2.${t}.${id}\n${body}`).digest('hex');
  assert.is(computeSignature(secret, t, id, body), expected);
  assert.is(sign(), `t=${t},v2=${expected}`);
});

test('the worked example of docs/emitters.md', () => {
  const doc = {
    secret: 'whsec_6sP0cJm1bC2vXxkq0W8yq3a9dFZ3m7hUu4LkR2tYw0E',
    body: '{"text":"@bob the nightly build is red","user":"dana"}',
  };
  assert.is(
    computeSignature(doc.secret, 1768478400, 'dlv_2f9c01', doc.body),
    'dbffa0b684c852e8214332955d821713f8b5a7c96f3a117bdc406c59371b5482',
  );
});

test('v1 (deprecated) is t=<unix>,v1=hex(hmac-sha256(secret, "<t>.<body>")), the delivery id unsigned', () => {
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  assert.is(computeSignatureV1(secret, t, body), expected);
  assert.is(signDeliveryV1(secret, body, now), `t=${t},v1=${expected}`);
  assert.equal(check(signDeliveryV1(secret, body, now), { deliveryId: 'any-other-id' }), {
    ok: true,
    timestamp: t,
    scheme: 'v1',
    alsoV1: false,
  });
});

test('a correct signature within the tolerance passes, with its timestamp and scheme', () => {
  assert.equal(check(sign()), { ok: true, timestamp: t, scheme: 'v2', alsoV1: false });
  assert.ok(check(sign({ nowMs: now - 299_000 })).ok);
  assert.ok(check(sign({ rawBody: Buffer.from(body) }), { body: Buffer.from(body) }).ok);
});

test('failures: missing, malformed, replayed, future, wrong secret, edited body', () => {
  assert.equal(check(undefined), { ok: false, reason: 'missing' });
  assert.equal(check('sha256=abc'), { ok: false, reason: 'malformed' });
  assert.equal(check(`t=${t}`), { ok: false, reason: 'malformed' });
  assert.equal(check(`t=${t},v2=zz`), { ok: false, reason: 'malformed' });
  assert.equal(check(`t=abc,v2=${'0'.repeat(64)}`), { ok: false, reason: 'malformed' });
  assert.equal(check(sign({ nowMs: now - 301_000 })), { ok: false, reason: 'too_old' });
  assert.equal(check(sign({ nowMs: now + 301_000 })), { ok: false, reason: 'in_future' });
  assert.equal(check(sign({ secret: 'whsec_other' })), { ok: false, reason: 'mismatch' });
  assert.equal(check(sign(), { body: body.replace('finished', 'failed') }), { ok: false, reason: 'mismatch' });
  assert.equal(check(sign(), { secrets: [] }), { ok: false, reason: 'mismatch' });
  // Re-stamping an old delivery with a fresh t breaks the HMAC, because t is signed.
  const old = sign({ nowMs: now - 3_600_000 });
  assert.equal(check(old.replace(/^t=\d+/, `t=${t}`)), { ok: false, reason: 'mismatch' });
  const oldV1 = signDeliveryV1(secret, body, now - 3_600_000);
  assert.equal(check(oldV1.replace(/^t=\d+/, `t=${t}`)), { ok: false, reason: 'mismatch' });
});

test('v2: the delivery id is signed, so the same signature under another id fails', () => {
  assert.equal(check(sign(), { deliveryId: 'dlv_43' }), { ok: false, reason: 'mismatch' });
  assert.equal(check(sign(), { deliveryId: undefined }), { ok: false, reason: 'mismatch' });
  // An id holding dots cannot shift bytes between the id and the body: the id ends at a newline.
  const dotted = signDelivery({ secret, deliveryId: 'a.b', rawBody: 'c', nowMs: now });
  assert.equal(check(dotted, { deliveryId: 'a', body: 'b.c' }), { ok: false, reason: 'mismatch' });
  assert.ok(check(dotted, { deliveryId: 'a.b', body: 'c' }).ok);
});

test('v2 cannot pass as v1: a v2 signature sent as v1= over "<id>\\n<body>" fails', () => {
  const v2hex = computeSignature(secret, t, id, body);
  assert.equal(check(`t=${t},v1=${v2hex}`, { body: `${id}\n${body}`, deliveryId: 'fresh' }), {
    ok: false,
    reason: 'mismatch',
  });
});

test('with a v2 entry only v2 counts: a good v1 entry does not rescue a v2 that fails', () => {
  const both = `${sign()},v1=${computeSignatureV1(secret, t, body)}`;
  assert.equal(check(both), { ok: true, timestamp: t, scheme: 'v2', alsoV1: true });
  assert.equal(check(both, { deliveryId: 'dlv_43' }), { ok: false, reason: 'mismatch' });
});

test('v1 is refused from V1_SUNSET on, before any secret is tried (an unknown channel answers the same)', () => {
  const sunset = Date.parse(V1_SUNSET);
  assert.ok(check(signDeliveryV1(secret, body, sunset - 1_000), { nowMs: sunset - 1 }).ok);
  assert.equal(check(signDeliveryV1(secret, body, sunset), { nowMs: sunset }), { ok: false, reason: 'v1_retired' });
  assert.equal(check(signDeliveryV1(secret, body, sunset), { nowMs: sunset, secrets: [] }), {
    ok: false,
    reason: 'v1_retired',
  });
  assert.ok(check(sign({ nowMs: sunset }), { nowMs: sunset }).ok, 'v2 goes on');
});

test('rotation: any entry of the scheme may match, and either of two secrets', () => {
  const a = sign({ secret: 'whsec_old' });
  const b = sign().split(',')[1];
  assert.ok(check(`${a},${b}`).ok);
  assert.ok(check(a, { secrets: [secret, 'whsec_old'] }).ok);
  assert.ok(check(`${sign()},v0=legacy`).ok, 'unknown schemes are ignored');
  const v1a = signDeliveryV1('whsec_old', body, now);
  assert.ok(check(`${v1a},${signDeliveryV1(secret, body, now).split(',')[1]}`).ok);
});

// The tolerance is 300 s either way, inclusive: tests 1 s inside and far outside it pass with < and
// <= swapped at either end.
test('a timestamp exactly 300 s old or ahead passes; 301 s does not', () => {
  const check = (signedAtMs: number) =>
    verifySignature({
      header: signDelivery({ secret, deliveryId: 'edge', rawBody: body, nowMs: signedAtMs }),
      secrets: [secret],
      deliveryId: 'edge',
      rawBody: body,
      nowMs: now,
    });
  assert.ok(check(now - 300_000).ok);
  assert.ok(check(now + 300_000).ok);
  assert.equal(check(now - 301_000), { ok: false, reason: 'too_old' });
  assert.equal(check(now + 301_000), { ok: false, reason: 'in_future' });
});

test.run();
