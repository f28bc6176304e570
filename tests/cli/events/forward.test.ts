import { createServer, type IncomingMessage } from 'node:http';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runForward } from '../../../cli/commands/events/forward.js';
import { runResend } from '../../../cli/commands/events/resend.js';
import { UsageError, FailedError } from '../../../cli/errors.js';
import { verifySignature } from '../../../shared/webhook-signature.js';
import { createUser } from '../../helpers/accounts.js';
import { devLoopSetUp } from '../../helpers/dev-loop.js';

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

/** The developer's app: records every POST and answers with the next status of `answers` (then 200). */
async function appServer(answers: number[] = []) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.statusCode = answers.shift() ?? 200;
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

/** A daemon with a user and a Company, and a CLI logged in as that user whose clock is the daemon's fake one. */
async function setUp() {
  const d = await devLoopSetUp();
  const u = await createUser(d.t);
  const company = await d.t.post('/api/companies', { name: 'acme' }, u.auth);
  const headers = { ...u.auth, 'x-company': company.body.id };
  const cli = (json = false) => {
    const c = d.again({ json });
    Object.assign(c.ctx.env, { SVC_TOKEN: u.token });
    c.ctx.now = () => d.t.clock.now();
    return c;
  };
  const trigger = (type: string) => d.t.post('/api/events/trigger', { type, content: { n: type } }, headers);
  return { d, cli, trigger, companyId: company.body.id as string };
}

const instant = async () => {
  await new Promise((r) => setImmediate(r));
};

/** Runs a forward until `count` deliveries were made, then stops it. */
async function forwardUntil(
  cli: ReturnType<Awaited<ReturnType<typeof setUp>>['cli']>,
  opts: Record<string, unknown>,
  count: number,
) {
  const controller = new AbortController();
  const delivered: string[] = [];
  await runForward(
    {
      to: String(opts.to),
      company: String(opts.company),
      type: opts.type as string | undefined,
      waitSeconds: 0,
      signal: controller.signal,
      sleep: instant,
      delivered: (e) => {
        delivered.push(e.id);
        if (delivered.length >= count) controller.abort();
      },
    },
    cli.ctx,
  );
  return delivered;
}

test('forward POSTs each event signed with the whsec_ secret it printed once', async () => {
  const { d, cli, trigger, companyId } = await setUp();
  const app = await appServer();
  try {
    await trigger('session:one');
    await trigger('agent:two');
    const c = cli();
    await forwardUntil(c, { to: app.url, company: companyId }, 2);
    const secret = /signing secret: (whsec_\S+)/.exec(c.stdout())?.[1];
    assert.ok(secret, c.stdout());
    assert.is(app.received.length, 2);
    for (const r of app.received) {
      const check = verifySignature({
        header: r.headers['x-svc-signature'] as string,
        secrets: [secret!],
        deliveryId: r.headers['x-svc-delivery'] as string,
        rawBody: r.body,
        nowMs: d.t.clock.now(),
      });
      assert.ok(check.ok, JSON.stringify(check));
      assert.is(JSON.parse(r.body).id, r.headers['x-svc-delivery']);
    }
    assert.equal(
      app.received.map((r) => JSON.parse(r.body).type),
      ['session:one', 'agent:two'],
    );
    assert.match(c.stdout(), /session:one {2}evt_\S+ {2}→ 200/);
  } finally {
    await app.close();
    await d.close();
  }
});

test('a stopped forward resumes after the last event it handed over, and the secret is not printed again', async () => {
  const { d, cli, trigger, companyId } = await setUp();
  const app = await appServer();
  try {
    await trigger('session:one');
    await forwardUntil(cli(), { to: app.url, company: companyId }, 1);
    await trigger('session:two');
    await trigger('session:three');
    const second = cli(true);
    await forwardUntil(second, { to: app.url, company: companyId }, 2);
    assert.equal(
      app.received.map((r) => JSON.parse(r.body).type),
      ['session:one', 'session:two', 'session:three'],
    );
    const lines = second
      .stdout()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.not.ok(
      lines.some((l) => 'secret' in l),
      'the secret shows on the first run only',
    );
    assert.equal(
      lines.map((l) => [l.type, l.status, l.ok]),
      [
        ['session:two', 200, true],
        ['session:three', 200, true],
      ],
    );
  } finally {
    await app.close();
    await d.close();
  }
});

test('a 500 is retried with backoff until the app takes it; --type keeps matching types only', async () => {
  const { d, cli, trigger, companyId } = await setUp();
  const app = await appServer([500, 503]);
  try {
    await trigger('agent:skip-me');
    await trigger('session:retry');
    const c = cli();
    await forwardUntil(c, { to: app.url, company: companyId, type: 'session:*' }, 1);
    assert.equal(
      app.received.map((r) => JSON.parse(r.body).type),
      ['session:retry', 'session:retry', 'session:retry'],
    );
    assert.match(c.stderr(), /attempt 1: HTTP 500; retrying in 1s/);
    assert.match(c.stderr(), /attempt 2: HTTP 503; retrying in 2s/);
    assert.match(c.stdout(), /→ 200 .*3 attempts/);
  } finally {
    await app.close();
    await d.close();
  }
});

test('resend posts one event again; a refusing app is exit 1; a bad --to is a usage error', async () => {
  const { d, cli, trigger, companyId } = await setUp();
  const app = await appServer([200, 400]);
  try {
    const ev = await trigger('session:again');
    const c = cli();
    await runResend({ id: ev.body.event.id, to: app.url, company: companyId }, c.ctx);
    assert.is(JSON.parse(app.received[0]!.body).id, ev.body.event.id);
    const refused = await runResend({ id: ev.body.event.id, to: app.url, company: companyId }, cli().ctx).catch(
      (e) => e,
    );
    assert.instance(refused, FailedError);
    assert.is(app.received.length, 2, 'a 400 is the app’s final word: not retried');
    const bad = await runForward({ to: 'localhost:3000', company: companyId, waitSeconds: 0 }, cli().ctx).catch(
      (e) => e,
    );
    assert.instance(bad, UsageError);
  } finally {
    await app.close();
    await d.close();
  }
});

test.run();
