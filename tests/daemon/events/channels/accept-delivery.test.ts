import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { randomBytes } from 'node:crypto';
import { acceptDelivery, type DeliveryRequest } from '../../../../daemon/events/channels/accept-delivery.js';
import {
  channelNameProblem,
  createChannel,
  describeChannel,
  rotateChannelSecret,
  secretsOf,
} from '../../../../daemon/events/channels/channel-secrets.js';
import { createDeliveryDedup } from '../../../../daemon/events/channels/delivery-dedup.js';
import { createMemoryRuntimeStores, openJournalRuntimeStores } from '../../../../daemon/store/runtime/open.js';
import { tempDir } from '../../../helpers/temp-dir.js';
import { signDelivery } from '../../../../shared/webhook-signature.js';
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
  const send = async (over: Partial<DeliveryRequest> & { body?: string; signWith?: string } = {}) => {
    const raw = Buffer.from(over.body ?? '{"text":"build red","ref":"main"}');
    return acceptDelivery(
      {
        channel: 'github',
        companyId: 'co_1',
        record,
        signature: signDelivery(over.signWith ?? secret, raw, now),
        deliveryId: 'dlv_1',
        contentType: 'application/json',
        rawBody: raw,
        nowMs: now,
        ...over,
      },
      { sealer, dedup },
    );
  };
  return { record, secret, send };
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
  assert.equal(await send(), { ok: true, duplicate: true, delivery_id: 'dlv_1' });
  const other = await send({ companyId: 'co_2' });
  assert.ok(other.ok && !other.duplicate);
  const next = await send({ deliveryId: 'dlv_2' });
  assert.ok(next.ok && !next.duplicate);
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
  const replay = await send({ signature: signDelivery('x', 'y', now - 600_000) });
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
    signature: signDelivery(secret, raw, now),
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
  });
  await after.close();
});

test.run();
