import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApiClient } from '../../../cli/api-client.js';
import { currentCompanyKey } from '../../../cli/company.js';
import { runWebhookSend, type WebhookSendOptions } from '../../../cli/commands/webhook/send.js';
import { UsageError } from '../../../cli/errors.js';
import { verifySignature } from '../../../shared/webhook-signature.js';
import { createFakeCli } from '../../helpers/cli.js';

const SECRET = 'whsec_cli_test_secret';

/** A stand-in daemon on a real socket: it checks the signature over the raw bytes it received, as the route will. */
async function startDaemon() {
  const seen: Array<{ path: string; headers: IncomingMessage['headers']; raw: string; valid: boolean }> = [];
  const delivered = new Set<string>();
  const server = createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    res.setHeader('content-type', 'application/json');
    if (req.url === '/api/companies') return res.end(JSON.stringify({ companies: [{ id: 'co_1', name: 'acme' }] }));
    const valid = verifySignature({
      header: req.headers['x-svc-signature'] as string,
      secrets: [SECRET],
      deliveryId: req.headers['x-svc-delivery'] as string,
      rawBody: raw,
      nowMs: Date.now(),
    }).ok;
    seen.push({ path: req.url!, headers: req.headers, raw, valid });
    if (!valid)
      return (
        (res.statusCode = 401),
        res.end(
          JSON.stringify({
            error: 'signature does not match the body and the channel secret',
            code: 'signature_invalid',
          }),
        )
      );
    const id = req.headers['x-svc-delivery'] as string;
    const duplicate = delivered.has(id);
    delivered.add(id);
    res.end(
      JSON.stringify({
        ok: true,
        delivery_id: id,
        duplicate,
        ...(duplicate
          ? {}
          : {
              event: { id: 'ev_1', type: 'webhook:github' },
              fired: [{ configured_event_id: 'cfg_1', tool: 'quests.create', ok: true }],
              routed: [{ session_id: 's1', decision: 'turn' }],
            }),
      }),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise((r) => server.close(r)) };
}

const opts = (over: Partial<WebhookSendOptions> = {}): WebhookSendOptions => ({
  channel: 'github',
  body: '{"text":"@bob build red", "n": 1}',
  secretStdin: false,
  dryRun: false,
  ...over,
});

function cli(url: string, extra: { stdin?: string; env?: Record<string, string>; json?: boolean } = {}) {
  const fake = createFakeCli({
    url,
    json: extra.json,
    stdin: extra.stdin,
    env: extra.env,
    api: createApiClient(url, async () => 'session-token'),
  });
  fake.ctx.config().set(currentCompanyKey(fake.ctx.url()), { id: 'co_1', name: 'acme' });
  return fake;
}

test('signs the exact bytes it sends, with X-Company, a delivery id and no bearer token', async () => {
  const daemon = await startDaemon();
  try {
    const fake = cli(daemon.url, { env: { SVC_WEBHOOK_SECRET: SECRET } });
    await runWebhookSend(opts(), fake.ctx);
    const hit = daemon.seen[0]!;
    assert.is(hit.path, '/api/webhooks/github');
    assert.ok(hit.valid, 'the daemon verified the signature over the raw body');
    assert.match(hit.headers['x-svc-signature'] as string, /^t=\d+,v2=[0-9a-f]{64}$/, 'v2: the delivery id is signed');
    assert.is(hit.raw, '{"text":"@bob build red","n":1}');
    assert.is(hit.headers['x-company'], 'co_1');
    assert.match(hit.headers['x-svc-delivery'] as string, /^cli_[0-9a-f]{16}$/);
    assert.is(hit.headers.authorization, undefined);
    assert.match(fake.stdout(), 'delivered cli_');
    assert.match(fake.stdout(), 'fired 1 tool call(s): quests.create');
    assert.match(fake.stdout(), 'session s1: started a turn');
  } finally {
    await daemon.close();
  }
});

test('--secret-stdin, a fixed delivery id twice (dedup), and --json', async () => {
  const daemon = await startDaemon();
  try {
    await runWebhookSend(opts({ secretStdin: true, delivery: 'dlv-7' }), cli(daemon.url, { stdin: `${SECRET}\n` }).ctx);
    const again = cli(daemon.url, { stdin: SECRET });
    await runWebhookSend(opts({ secretStdin: true, delivery: 'dlv-7' }), again.ctx);
    assert.match(again.stdout(), 'delivery dlv-7 was already received');
    const json = cli(daemon.url, { env: { SVC_WEBHOOK_SECRET: SECRET }, json: true });
    await runWebhookSend(opts({ delivery: 'dlv-8' }), json.ctx);
    assert.equal(JSON.parse(json.stdout()).delivery_id, 'dlv-8');
  } finally {
    await daemon.close();
  }
});

test('a wrong secret comes back as the daemon error', async () => {
  const daemon = await startDaemon();
  try {
    await runWebhookSend(opts(), cli(daemon.url, { env: { SVC_WEBHOOK_SECRET: 'whsec_wrong' } }).ctx);
    assert.unreachable('should fail');
  } catch (err) {
    assert.is((err as { code?: string }).code, 'signature_invalid');
  } finally {
    await daemon.close();
  }
});

test('--dry-run prints a request that verifies, without sending', async () => {
  const fake = cli('http://127.0.0.1:9', { env: { SVC_WEBHOOK_SECRET: SECRET }, json: true });
  await runWebhookSend(opts({ dryRun: true, delivery: 'd1' }), fake.ctx);
  const printed = JSON.parse(fake.stdout());
  assert.is(printed.headers['X-Svc-Delivery'], 'd1');
  // Verified at the signing time the header names, so the check does not depend on the wall clock.
  const signedAt = Number(/t=(\d+)/.exec(printed.headers['X-Svc-Signature'])![1]) * 1000;
  assert.ok(
    verifySignature({
      header: printed.headers['X-Svc-Signature'],
      secrets: [SECRET],
      deliveryId: printed.headers['X-Svc-Delivery'],
      rawBody: printed.body,
      nowMs: signedAt,
    }).ok,
  );
});

test('usage errors: bad JSON, no secret, bad channel name', async () => {
  const fake = cli('http://127.0.0.1:9');
  const usage = async (o: Partial<WebhookSendOptions>, f = fake) => {
    try {
      await runWebhookSend(opts(o), f.ctx);
      assert.unreachable('should be a usage error');
    } catch (err) {
      assert.instance(err, UsageError);
      return (err as Error).message;
    }
    return '';
  };
  assert.match(await usage({}), 'no channel secret');
  assert.match(await usage({ body: '{nope' }), '--body must be JSON');
  assert.match(await usage({ channel: 'Bad Name' }), 'bad channel');
  assert.match(await usage({ secretStdin: true }, cli('http://127.0.0.1:9', { stdin: '' })), 'no channel secret');
});

test.run();
