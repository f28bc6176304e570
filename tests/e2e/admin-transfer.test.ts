import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCli, testSettingsEnv } from '../helpers/daemon-process.js';
import { testPostgres } from '../helpers/postgres.js';
import { tempDir } from '../helpers/temp-dir.js';
import { companyOwner, PROOF_PASSWORD } from '../proof/lib/accounts.js';
import { bearer, call, expectStatus } from '../proof/lib/client.js';
import { startProofDaemon } from '../proof/lib/daemon.js';

/**
 * `svc admin export` / `svc admin import` end to end, as an operator moves a deployment: a real
 * daemon fills a data folder and stops; the folder goes to an archive, the archive into
 * PostgreSQL (where it is installed), back out to a second archive and into a new data folder;
 * a daemon started there is the same deployment (same login, keys, Companies, events, transcripts).
 */
const CHEAP = testSettingsEnv();
const svc = (args: string[]) => runCli(args, { HOME: tempDir('svc-home'), SVC_KEYCHAIN: 'off' });
const cluster = testPostgres();

test('data folder → archive → PostgreSQL → archive → data folder: the same deployment', async () => {
  const first = tempDir('svc-move-a');
  const before = await fillDeployment(first);

  const files = tempDir('svc-move-archives');
  const archive1 = join(files, 'one.svc-archive');
  const exported = await svc(['admin', 'export', '--data', first, '--out', archive1]);
  assert.is(exported.code, 0, exported.stderr);
  assert.match(exported.stdout, /^exported \d+ records \(1 Companies, \d+ events\)/);
  assert.is(statSync(archive1).mode & 0o777, 0o600, 'the archive holds secrets: 0600');

  let last = archive1;
  if (cluster) {
    const url = await (await cluster()).createDatabase();
    const intoPg = await svc(['admin', 'import', '--in', archive1, '--database', url]);
    assert.is(intoPg.code, 0, intoPg.stderr);
    last = join(files, 'two.svc-archive');
    const outOfPg = await svc(['admin', 'export', '--database', url, '--out', last]);
    assert.is(outOfPg.code, 0, outOfPg.stderr);
  }
  const moved = join(tempDir('svc-move-parent'), 'moved');
  // What a crashed import into the same target left behind (its process is gone): removed by the next one.
  const crashed = join(moved, '..', `.moved.importing-${spawnSync('true').pid}`);
  mkdirSync(crashed);
  writeFileSync(join(crashed, 'half-written'), 'x');
  const imported = await svc(['admin', 'import', '--in', last, '--data', moved]);
  assert.is(imported.code, 0, imported.stderr);
  assert.match(imported.stdout, /^imported \d+ records \(1 Companies, \d+ events\)/);

  const d2 = await startProofDaemon(moved, CHEAP);
  try {
    const login = await call(d2.url, '/api/auth/login', {
      body: { email: 'mover@example.com', password: PROOF_PASSWORD },
    });
    assert.is(login.status, 200, login.text);
    // The JWT secret moved too: a token issued before the move is still good.
    assert.is((await call(d2.url, '/api/me', { headers: before.owner.auth })).status, 200);
    const viaKey = await call(d2.url, '/api/agents', { headers: bearer(before.sk) });
    assert.is(viaKey.status, 200, viaKey.text);
    assert.equal(
      viaKey.body.agents.map((a: { name: string }) => a.name),
      ['scribe'],
    );
    const companies = (await call(d2.url, '/api/companies', { headers: bearer(login.body.token) })).body.companies;
    assert.equal(companies, before.companies);
    const session = (await call(d2.url, `/api/sessions/${before.session.id}`, { headers: before.tenant })).body.session;
    assert.equal(session, before.session);
    const events = (await call(d2.url, '/api/events?limit=1000', { headers: before.tenant })).body.events;
    // Every field, `source` included (a manual trigger stays `manual` through PostgreSQL).
    assert.equal(events, before.events);
    assert.equal((await call(d2.url, '/api/events/budget', { headers: before.tenant })).body.budget, before.budget);
    assert.equal(
      (await call(d2.url, '/api/events/failures', { headers: before.tenant })).body.failures,
      before.failures,
    );
    const next = expectStatus(
      await call(d2.url, '/api/events/trigger', { headers: before.tenant, body: { type: 'after:move' } }),
      200,
      'trigger after the move',
    ).body.event;
    assert.ok(next.id > before.events.at(-1).id, 'new ids continue above the moved ones');
  } finally {
    await d2.stop();
  }
  assert.equal(
    readdirSync(join(moved, '..')).filter((n) => n.includes('importing')),
    [],
    'no staging folder left behind',
  );
  assert.ok(existsSync(join(moved, 'jwt-secret')));
});

/** A real daemon on `dir` makes an account, a Company, a key, an agent, a transcript and events, then stops. */
async function fillDeployment(dir: string) {
  const d = await startProofDaemon(dir, CHEAP);
  try {
    const url = d.url;
    const { owner, company, sk, tenant } = await companyOwner(url, dir, 'mover@example.com');
    const agent = expectStatus(
      await call(url, '/api/agents', { headers: tenant, body: { name: 'scribe', role: 'writer' } }),
      201,
      'agent',
    ).body.agent;
    const session = expectStatus(
      await call(url, '/api/sessions', { headers: tenant, body: { agent_id: agent.id } }),
      201,
      'session',
    ).body.session;
    for (const text of ['hello', 'zero\u0000byte and ünïcode', 'bye'])
      expectStatus(
        await call(url, `/api/sessions/${session.id}/messages`, { headers: tenant, body: { from: 'user', text } }),
        200,
        'message',
      );
    expectStatus(
      await call(url, '/api/events/trigger', { headers: tenant, body: { type: 'deploy:done', content: { n: 1 } } }),
      200,
      'trigger',
    );
    // A chain budget, and a call that fails for good (nobody has the role): both move.
    const budget = { max_firings: 50, max_tool_calls: null, within_ms: 600_000 };
    expectStatus(
      await call(url, '/api/events/budget', { method: 'PUT', headers: tenant, body: budget }),
      200,
      'budget',
    );
    const rule = { type: 'loop:detected', tool_calls: [{ tool: 'message_to', args: { to: 'nobody', text: 'x' } }] };
    expectStatus(await call(url, '/api/events', { headers: tenant, body: rule }), 201, 'rule');
    expectStatus(
      await call(url, '/api/events/trigger', { headers: tenant, body: { type: 'loop:detected' } }),
      200,
      'fail',
    );
    const failures = (await call(url, '/api/events/failures', { headers: tenant })).body.failures;
    assert.is(failures.length, 1);
    const events = (await call(url, '/api/events?limit=1000', { headers: tenant })).body.events;
    assert.is(events.length, 3, 'session:start, deploy:done and loop:detected');
    return {
      budget,
      failures,
      owner,
      company,
      sk,
      tenant,
      session: (await call(url, `/api/sessions/${session.id}`, { headers: tenant })).body.session,
      events,
      companies: (await call(url, '/api/companies', { headers: owner.auth })).body.companies,
    };
  } finally {
    await d.stop();
  }
}

test.run();
