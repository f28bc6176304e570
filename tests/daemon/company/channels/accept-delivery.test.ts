import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { randomBytes } from 'node:crypto';
import { acceptDelivery, type DeliveryRequest } from '../../../../daemon/company/channels/accept-delivery.js';
import {
  channelNameProblem,
  createChannel,
  describeChannel,
  rotateChannelSecret,
  secretsOf,
} from '../../../../daemon/company/channels/channel-secrets.js';
import { createDeliveryDedup } from '../../../../daemon/company/channels/delivery-dedup.js';
import { createMemoryRuntimeStores, openJournalRuntimeStores } from '../../../../daemon/store/runtime/open.js';
import { tempDir } from '../../../helpers/temp-dir.js';
import { computeSignatureV1, signDelivery, signDeliveryV1, V1_SUNSET } from '../../../../shared/webhook-signature.js';
import { cryptoRandom } from '../../../../daemon/random.js';
import { createSealer } from '../../../../daemon/store/sealer.js';

const sealer = createSealer(randomBytes(32));
const now = Date.parse('2026-01-15T12:00:00Z');

function setup() {
  const { record, secret } = createChannel('github', {
    random: cryptoRandom,
    sealer,
    nowIso: new Date(now).toISOString(),
  });
  const dedup = createDeliveryDedup(createMemoryRuntimeStores().deliveries);
  /** A v2 delivery signed over its own id, unless the test gives the signature. */
  const send = async (over: Partial<DeliveryRequest> & { body?: string; signWith?: string } = {}) => {
    const raw = Buffer.from(over.body ?? '{"text":"build red","ref":"main"}');
    const deliveryId = 'deliveryId' in over ? over.deliveryId : 'dlv_1';
    const signature = signDelivery({
      secret: over.signWith ?? secret,
      deliveryId: deliveryId ?? '',
      rawBody: raw,
      nowMs: now,
    });
    return acceptDelivery(
      {
        channel: 'github',
        companyId: 'co_1',
        record,
        signature,
        contentType: 'application/json',
        rawBody: raw,
        nowMs: now,
        ...over,
        deliveryId,
      },
      { sealer, dedup },
    );
  };
  return { record, secret, dedup, send };
}

test('channel secrets: whsec_ + 256 bits, sealed at rest, never listed', async () => {
  const { record, secret } = setup();
  assert.match(secret, /^whsec_[A-Za-z0-9_-]{43}$/);
  assert.not.ok(JSON.stringify(record).includes(secret.slice(6)), 'no plaintext secret in the record');
  assert.equal(secretsOf(record, sealer, now), [secret]);
  assert.not.ok(JSON.stringify(describeChannel(record)).includes('whsec'));
  assert.is(channelNameProblem('github'), null);
  assert.ok(channelNameProblem('Bad Name'));
  assert.ok(channelNameProblem('a'.repeat(64)));
});

test('rotation keeps the previous secret for the grace period only', async () => {
  const { record, secret } = setup();
  const rotated = rotateChannelSecret(record, { random: cryptoRandom, sealer, nowMs: now, graceMs: 60_000 });
  assert.equal(secretsOf(rotated.record, sealer, now + 1_000), [rotated.secret, secret]);
  assert.equal(secretsOf(rotated.record, sealer, now + 61_000), [rotated.secret]);
  const revoked = rotateChannelSecret(record, { random: cryptoRandom, sealer, nowMs: now, graceMs: 0 });
  assert.equal(secretsOf(revoked.record, sealer, now), [revoked.secret]);
});

test('a signed delivery becomes a webhook:<channel> event with its body', async () => {
  const { send } = setup();
  const out = await send();
  assert.ok(out.ok && !out.duplicate);
  if (out.ok && !out.duplicate) {
    assert.equal(out.emit, {
      type: 'webhook:github',
      source: 'webhook',
      content: {
        channel: 'github',
        delivery_id: 'dlv_1',
        signed_at: '2026-01-15T12:00:00.000Z',
        body: { text: 'build red', ref: 'main' },
      },
    });
  }
});

test('the same delivery id is acknowledged as a duplicate, not emitted again; per company and channel', async () => {
  const { send } = setup();
  assert.ok((await send()).ok);
  assert.equal(await send(), { ok: true, duplicate: true, delivery_id: 'dlv_1', scheme: 'v2' });
  const other = await send({ companyId: 'co_2' });
  assert.ok(other.ok && !other.duplicate);
  const next = await send({ deliveryId: 'dlv_2' });
  assert.ok(next.ok && !next.duplicate);
});

test('v2: the same signed bytes under a new delivery id fail the signature (401), and nothing is remembered', async () => {
  const { send, secret, dedup } = setup();
  const raw = '{"text":"build red","ref":"main"}';
  const signature = signDelivery({ secret, deliveryId: 'dlv_1', rawBody: raw, nowMs: now });
  assert.ok((await send({ signature })).ok);
  const size = await dedup.size();
  assert.equal(await send({ signature, deliveryId: 'dlv_fresh' }), {
    ok: false,
    status: 401,
    code: 'signature_invalid',
    message: 'signature does not match the body and the channel secret',
  });
  assert.is(await dedup.size(), size);
  // Two deliveries with the same body in the same second are two deliveries: v2 tells them apart by id.
  const second = await send({ deliveryId: 'dlv_2' });
  assert.ok(second.ok && !second.duplicate);
});

test('v1: an old sender is accepted once; its signed bytes under a new delivery id are a duplicate', async () => {
  const { send, secret, dedup } = setup();
  const raw = Buffer.from('{"text":"build red"}');
  const v1 = signDeliveryV1(secret, raw, now);
  const first = await send({ signature: v1, body: raw.toString(), deliveryId: 'dlv_a' });
  assert.ok(first.ok && !first.duplicate && first.scheme === 'v1', JSON.stringify(first));
  const size = await dedup.size();
  for (const deliveryId of ['dlv_b', 'dlv_c', 'dlv_a'])
    assert.equal(await send({ signature: v1, body: raw.toString(), deliveryId }), {
      ok: true,
      duplicate: true,
      delivery_id: deliveryId,
      scheme: 'v1',
    });
  assert.is(await dedup.size(), size, 'a replay writes nothing, so replays cannot crowd real ids out');
  // A retry re-signed at a later second (new bytes) under the same id is still the same delivery.
  const resigned = signDeliveryV1(secret, raw, now + 1_000);
  const retry = await send({ signature: resigned, body: raw.toString(), deliveryId: 'dlv_a', nowMs: now + 1_000 });
  assert.ok(retry.ok && retry.duplicate);
});

test('a sender signing v1 and v2: stripped to its v1 entry under a new id, the delivery is a duplicate', async () => {
  const { send, secret } = setup();
  const raw = '{"text":"both"}';
  const both = `${signDelivery({ secret, deliveryId: 'dlv_x', rawBody: raw, nowMs: now })},v1=${computeSignatureV1(secret, Math.floor(now / 1000), raw)}`;
  const first = await send({ signature: both, body: raw, deliveryId: 'dlv_x' });
  assert.ok(first.ok && !first.duplicate && first.scheme === 'v2');
  assert.equal(await send({ signature: both, body: raw, deliveryId: 'dlv_y' }), {
    ok: false,
    status: 401,
    code: 'signature_invalid',
    message: 'signature does not match the body and the channel secret',
  });
  const stripped = both.replace(/,v2=[0-9a-f]+/, '');
  const downgraded = await send({ signature: stripped, body: raw, deliveryId: 'dlv_y' });
  assert.ok(downgraded.ok && downgraded.duplicate, JSON.stringify(downgraded));
});

test('v1 is refused from its sunset on', async () => {
  const { send, secret } = setup();
  const at = Date.parse(V1_SUNSET);
  const raw = '{"text":"late"}';
  const late = await send({ signature: signDeliveryV1(secret, raw, at), body: raw, nowMs: at });
  assert.ok(!late.ok && late.status === 401 && late.code === 'signature_invalid');
  assert.match(late.ok ? '' : late.message, /v1 signatures are not accepted since/);
});

test('failures: bad signature, unknown channel, replay, bad delivery id, bad JSON, huge body', async () => {
  const { send } = setup();
  assert.equal(await send({ signWith: 'whsec_forged' }), {
    ok: false,
    status: 401,
    code: 'signature_invalid',
    message: 'signature does not match the body and the channel secret',
  });
  assert.equal(
    await send({ record: undefined }),
    await send({ signWith: 'whsec_forged' }),
    'unknown channel looks like a bad signature',
  );
  const replay = await send({
    signature: signDelivery({ secret: 'x', deliveryId: 'dlv_1', rawBody: 'y', nowMs: now - 600_000 }),
  });
  assert.is(replay.ok ? '' : replay.code, 'signature_expired');
  assert.is((await send({ signature: undefined })).ok, false);
  const noId = await send({ deliveryId: undefined });
  assert.is(noId.ok ? 0 : noId.status, 400);
  const badId = await send({ deliveryId: 'has space' });
  assert.is(badId.ok ? '' : badId.code, 'validation_failed');
  const badJson = await send({ body: '{nope', deliveryId: 'fixme' });
  assert.is(badJson.ok ? '' : badJson.code, 'invalid_json');
  const fixed = await send({ body: '{"ok":1}', deliveryId: 'fixme' });
  assert.ok(fixed.ok && !fixed.duplicate, 'a refused delivery id is not remembered');
  const huge = await send({ body: 'x'.repeat(300 * 1024), contentType: 'text/plain' });
  assert.is(huge.ok ? 0 : huge.status, 413);
});

test('non-JSON bodies are delivered as text; an empty JSON body as null', async () => {
  const { send } = setup();
  const text = await send({ body: 'hello', contentType: 'text/plain', deliveryId: 'a' });
  assert.ok(text.ok && !text.duplicate && (text.emit.content as { body: unknown }).body === 'hello');
  const empty = await send({ body: '', deliveryId: 'b' });
  assert.ok(empty.ok && !empty.duplicate && (empty.emit.content as { body: unknown }).body === null);
});

test('dedup memory is bounded and forgets ids past the retention', async () => {
  const dedup = createDeliveryDedup(
    createMemoryRuntimeStores({ deliveryRetentionMs: 1_000, maxDeliveryIds: 10 }).deliveries,
  );
  for (let i = 0; i < 100; i++) await dedup.firstSeen('c', `d${i}`, now);
  assert.ok((await dedup.size()) <= 10);
  assert.ok(await dedup.firstSeen('c', 'x', now));
  assert.not.ok(await dedup.firstSeen('c', 'x', now + 500));
  assert.ok(
    await dedup.firstSeen('c', 'x', now + 1_500),
    'forgotten after the retention (the signature window has closed by then)',
  );
});

test('a replay right after a daemon restart is still a duplicate: delivery ids are in the Company journal', async () => {
  const dir = tempDir('svc-dedup');
  const { record, secret } = createChannel('github', {
    random: cryptoRandom,
    sealer,
    nowIso: new Date(now).toISOString(),
  });
  const raw = Buffer.from('{"text":"build red"}');
  const request = (nowMs: number): DeliveryRequest => ({
    channel: 'github',
    companyId: 'co_1',
    record,
    signature: signDelivery({ secret, deliveryId: 'dlv_1', rawBody: raw, nowMs: now }),
    deliveryId: 'dlv_1',
    contentType: 'application/json',
    rawBody: raw,
    nowMs,
  });
  const before = await openJournalRuntimeStores(dir);
  const first = await acceptDelivery(request(now), { sealer, dedup: createDeliveryDedup(before.deliveries) });
  assert.ok(first.ok && !first.duplicate);
  await before.close();
  const after = await openJournalRuntimeStores(dir);
  assert.equal(await acceptDelivery(request(now + 60_000), { sealer, dedup: createDeliveryDedup(after.deliveries) }), {
    ok: true,
    duplicate: true,
    delivery_id: 'dlv_1',
    scheme: 'v2',
  });
  await after.close();
});

test.run();
