import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
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
import * as oauth from 'oauth4webapi';

/**
 * `svc admin export` / `svc admin import` end to end, as an operator moves a deployment: a real
 * daemon fills a data folder and stops; the folder goes to an archive, the archive into
 * PostgreSQL (where it is installed), back out to a second archive and into a new data folder;
 * a daemon started there is the same deployment (same login, keys, Companies, events, transcripts).
 */
/**
 * Both daemons answer as one deployment's public URL (as after a real move: the address stays),
 * so OAuth tokens issued before the move are for the same resource after it.
 */
const PUBLIC = 'http://svc.test';
const CHEAP = { ...testSettingsEnv(), SVC_PUBLIC_URL: PUBLIC };
/** A fixed port: a daemon on port 0 names its own address as its public URL, whatever SVC_PUBLIC_URL says. */
const AS_PUBLIC = ['--port', String(await freePort())];
/** oauth4webapi talks to `daemonUrl` for the public URL's endpoints. */
const over = (daemonUrl: string) => ({
  [oauth.allowInsecureRequests]: true,
  [oauth.customFetch]: (url: string, init: RequestInit) => fetch(url.replace(PUBLIC, daemonUrl), init),
});
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

  const d2 = await startProofDaemon(moved, CHEAP, AS_PUBLIC);
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
    // An MCP client signed in before the move keeps working: its token, its grant, its refresh.
    const { as, client, tokens } = before.oauth;
    const whoami = await call(d2.url, '/api/mcp', {
      headers: {
        authorization: `Bearer ${tokens.access_token}`,
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
      },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'whoami', arguments: {} } },
    });
    assert.is(whoami.status, 200, whoami.text);
    assert.is(whoami.body.result.structuredContent.company.id, before.company.id);
    const grants = (await call(d2.url, '/api/oauth/grants', { headers: before.owner.auth })).body.grants;
    assert.equal(
      grants.map((g: { client: { name: string } }) => g.client.name),
      ['moving client'],
    );
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, over(d2.url)),
    );
    assert.type(refreshed.access_token, 'string');
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
  const d = await startProofDaemon(dir, CHEAP, AS_PUBLIC);
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
      oauth: await signInOverHttp(url, owner.auth, company.id),
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

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/** An MCP client's whole sign-in over HTTP: discovery, registration, consent for `companyId`, the code redeemed. */
async function signInOverHttp(url: string, auth: Record<string, string>, companyId: string) {
  const issuer = new URL(PUBLIC);
  const as = await oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { ...over(url), algorithm: 'oauth2' }),
  );
  const redirectUri = 'http://127.0.0.1:33418/callback';
  const client = await oauth.processDynamicClientRegistrationResponse(
    await oauth.dynamicClientRegistrationRequest(
      as,
      { redirect_uris: [redirectUri], token_endpoint_auth_method: 'none', client_name: 'moving client' },
      over(url),
    ),
  );
  const verifier = oauth.generateRandomCodeVerifier();
  const consent = expectStatus(
    await call(url, '/api/oauth/authorize', {
      headers: auth,
      body: {
        response_type: 'code',
        client_id: client.client_id,
        redirect_uri: redirectUri,
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state: 'move',
        scope: 'events:read',
        resource: `${PUBLIC}/api/mcp`,
        company_id: companyId,
        decision: 'allow',
      },
    }),
    200,
    'consent',
  ).body;
  const params = oauth.validateAuthResponse(as, client, new URL(consent.redirect_to), 'move');
  const tokens = await oauth.processAuthorizationCodeResponse(
    as,
    client,
    await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, verifier, over(url)),
  );
  return { as, client, tokens };
}

test.run();
