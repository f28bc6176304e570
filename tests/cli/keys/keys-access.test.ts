import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runCompaniesCreate } from '../../../cli/commands/companies/create.js';
import * as z from 'zod/mini';
import { describeAccess, runKeysCreate } from '../../../cli/commands/keys/create.js';
import { keyListResponse } from '../../../shared/schemas/keys.js';
import { runKeysExplain } from '../../../cli/commands/keys/explain.js';
import { runKeysList } from '../../../cli/commands/keys/list.js';
import { runKeysRotate } from '../../../cli/commands/keys/rotate.js';
import { accounts } from '../../../cli/credentials/store.js';
import { ApiRequestError, UsageError } from '../../../cli/errors.js';
import { main } from '../../../cli/main.js';
import { createUser } from '../../helpers/accounts.js';
import { createFakeCli } from '../../helpers/cli.js';
import { createTestApp, serveTestApp, type TestApp } from '../../helpers/test-app.js';

/** `svc keys create --scope --expires`, `keys list` columns, `keys rotate --overlap`, `keys explain`, against a real socket. */
const test = suite('cli: scoped, expiring and rotating keys');

let t: TestApp;
let server: { url: string; close(): Promise<void> };
test.before(async () => {
  t = await createTestApp();
  server = await serveTestApp(t);
});
test.after(async () => {
  await server.close();
  await t.close();
});

const cliFor = (token: string, json = false) => createFakeCli({ url: server.url, json, env: { SVC_TOKEN: token } });

test('create --scope --expires 30d, list shows scopes, expiry and last use; rotate --overlap 24h; explain', async () => {
  const u = await createUser(t, { tier: 'company' });
  const cli = cliFor(u.token);
  await runCompaniesCreate({ name: 'Acme' }, cli.ctx);
  await runKeysCreate(
    { root: 'Acme', name: 'monitor', store: true, scopes: ['events:read', 'events:trigger'], expires: '30d' },
    cli.ctx,
  );
  const expiresAt = new Date(t.clock.now() + 30 * 86_400_000).toISOString();
  assert.match(cli.stdout(), `It has scopes events:read, events:trigger, and expires at ${expiresAt}.`);
  const key = /^\s+(sk_\S+)$/m.exec(cli.stdout())![1]!;
  assert.is((await t.get('/api/events', { authorization: `Bearer ${key}` })).status, 200);

  await runKeysList({}, cli.ctx);
  assert.match(cli.stdout(), /SCOPES\s+EXPIRES\s+CREATED\s+LAST USED/);
  assert.match(cli.stdout(), /monitor\s+Acme\s+sk_\S{6}…\s+events:read,events:trigger\s+\d{4}-\d\d-\d\d \d\d:\d\d\s+/);
  assert.match(cli.stdout(), / from \S+/, 'the last-used address');

  const id = (await t.get('/api/keys', u.auth)).body.keys[0].id;
  const companyId = (await t.get('/api/keys', u.auth)).body.keys[0].company.id;
  await runKeysRotate({ id, overlap: '24h', store: true }, cli.ctx);
  const fresh = /^\s+(sk_\S+)$/gm;
  const printed = [...cli.stdout().matchAll(fresh)].map((m) => m[1]);
  const newKey = printed.at(-1)!;
  assert.is.not(newKey, key);
  assert.match(
    cli.stdout(),
    `The old key ${id} keeps working until ${new Date(t.clock.now() + 86_400_000).toISOString()}`,
  );
  assert.is(cli.credentials.get(accounts.secretKey(cli.ctx.scope, companyId)), newKey, 'the stored key is the new one');

  const json = cliFor(u.token, true);
  await runKeysExplain({ id, operation: 'tools/call events create' }, json.ctx);
  const verdict = JSON.parse(json.stdout());
  assert.equal([verdict.allowed, verdict.rule, verdict.required_scope], [false, 'scope', 'events:write']);
  await runKeysExplain({ id, operation: 'POST /api/events/trigger' }, cli.ctx);
  assert.match(cli.stdout(), 'allowed: POST /api/events/trigger');
});

test('a daemon of an earlier release answers keys without the new fields: the CLI still reads them (every scope, no expiry)', () => {
  const old = {
    keys: [
      {
        id: 'key_1',
        name: 'ci',
        company: { id: 'cmp_1', name: 'Acme' },
        prefix: 'sk_abcdef…',
        created_at: 't',
        last_used_at: null,
      },
    ],
    account_key: null,
  };
  const parsed = z.safeParse(keyListResponse, old);
  assert.ok(parsed.success);
  assert.is(describeAccess(parsed.data!.keys[0]!), 'It has every scope, and does not expire.');
});

test('bad --scope, --expires and --overlap are usage errors before any request; a server refusal is an API error', async () => {
  const u = await createUser(t, { tier: 'company' });
  const cli = cliFor(u.token);
  await runCompaniesCreate({ name: 'Beta' }, cli.ctx);
  for (const opts of [{ scopes: ['events:fly'] }, { expires: 'soon' }, { expires: '0' }]) {
    try {
      await runKeysCreate({ root: 'Beta', name: 'x', store: false, ...opts }, cli.ctx);
      assert.unreachable(JSON.stringify(opts));
    } catch (err) {
      assert.instance(err, UsageError);
    }
  }
  try {
    await runKeysRotate({ id: 'key_x', overlap: 'later', store: false }, cli.ctx);
    assert.unreachable();
  } catch (err) {
    assert.instance(err, UsageError);
  }
  try {
    await runKeysRotate({ id: 'key_nope', overlap: '0', store: false }, cli.ctx);
    assert.unreachable();
  } catch (err) {
    assert.instance(err, ApiRequestError);
    assert.is((err as ApiRequestError).status, 404);
  }
});

test('the commands parse through the real program: repeatable --scope, explain takes the operation as words', async () => {
  const run = async (argv: string[]) => {
    const cli = createFakeCli();
    const code = await main(argv, {
      io: cli.ctx.io,
      env: { SVC_CONFIG_DIR: cli.ctx.configDir, SVC_KEYCHAIN: 'off', SVC_URL: 'http://127.0.0.1:9' },
    });
    return { code, stderr: cli.stderr() };
  };
  assert.is((await run(['keys', 'rotate', 'key_1'])).code, 2, '--overlap is required');
  assert.is((await run(['keys', 'explain', 'key_1'])).code, 2, 'the operation is required');
  const bad = await run(['keys', 'create', '--name', 'x', '--root', 'A', '--scope', 'events:read', '--scope', 'nope']);
  assert.is(bad.code, 2);
  assert.match(bad.stderr, /unknown scope nope/);
});

test.run();
