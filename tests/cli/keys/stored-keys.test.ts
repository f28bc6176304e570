import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runCompaniesCreate } from '../../../cli/commands/companies/create.js';
import { runKeysCreate } from '../../../cli/commands/keys/create.js';
import { runKeysList } from '../../../cli/commands/keys/list.js';
import { runKeysRevoke } from '../../../cli/commands/keys/revoke.js';
import { runKeysRotate } from '../../../cli/commands/keys/rotate.js';
import { runKeysUse } from '../../../cli/commands/keys/use.js';
import { runKeysValidate } from '../../../cli/commands/keys/validate.js';
import { accounts } from '../../../cli/credentials/store.js';
import { NotFoundError } from '../../../cli/errors.js';
import { resolveMcpKeys } from '../../../cli/mcp/keys.js';
import { createUser } from '../../helpers/accounts.js';
import { createFakeCli, type FakeCli } from '../../helpers/cli.js';
import { createTestApp, serveTestApp, type TestApp } from '../../helpers/test-app.js';

/** Several secret keys per Company in one profile: named, none replaced silently, one current. */
const test = suite('cli: stored secret keys');

let t: TestApp;
let server: { url: string; close(): Promise<void> };
test.before(async () => {
  t = await createTestApp();
  server = await serveTestApp(t);
});
test.after(() => server.close());

async function world() {
  const u = await createUser(t, { tier: 'company' });
  const cli = createFakeCli({ url: server.url, env: { SVC_TOKEN: u.token } });
  // Expiry is judged on the CLI's clock: the same fake one the daemon's key expiries come from.
  cli.ctx.now = t.clock.now;
  await runCompaniesCreate({ name: 'Acme' }, cli.ctx);
  const companyId = /Company Acme \((cmp_\S+)\)/.exec(cli.stdout())![1]!;
  const create = async (name: string) => {
    const before = cli.stdout().length;
    await runKeysCreate({ root: companyId, name, store: true }, cli.ctx);
    const out = cli.stdout().slice(before);
    return { id: /Created secret key (key_\S+)/.exec(out)![1]!, secret: /^\s+(sk_\S+)$/m.exec(out)![1]!, out };
  };
  return { u, cli, companyId, create };
}

/** What `svc keys validate` reports under --json, run with the profile's stored keys. */
async function validatedWith(cli: FakeCli): Promise<string> {
  const v = createFakeCli({ url: server.url, json: true, env: { SVC_TOKEN: 'unused' } });
  for (const [k, val] of cli.credentials) v.credentials.set(k, val);
  v.ctx.config().set(`company:${v.ctx.scope}`, cli.ctx.config().get(`company:${cli.ctx.scope}`));
  await runKeysValidate({}, v.ctx);
  return JSON.parse(v.stdout()).company.id;
}

test('a second key is stored beside the first and named in the output; list marks current and stored', async () => {
  const { u, cli, companyId, create } = await world();
  const laptop = await create('laptop');
  const ci = await create('ci');
  assert.match(ci.out, `Also stored for this Company: ${laptop.id} 'laptop'; switch back with 'svc keys use <id>'`);
  assert.is(cli.credentials.get(accounts.secretKey(cli.ctx.scope, companyId)), ci.secret, 'the newest is current');
  const all = JSON.parse(cli.credentials.get(accounts.secretKeys(cli.ctx.scope, companyId))!);
  assert.equal(
    all.map((k: { name: string; secret: string }) => [k.name, k.secret]),
    [
      ['laptop', laptop.secret],
      ['ci', ci.secret],
    ],
  );
  const list = createFakeCli({ url: server.url, env: { SVC_TOKEN: u.token } });
  for (const [k, v] of cli.credentials) list.credentials.set(k, v);
  await runKeysList({}, list.ctx);
  assert.match(list.stdout(), new RegExp(`${laptop.id}\\s+laptop .*stored$`, 'm'));
  assert.match(list.stdout(), new RegExp(`${ci.id}\\s+ci .*current$`, 'm'));
});

test('revoking the current key makes the other stored key current: validate and svc mcp keep working', async () => {
  const { u, cli, companyId, create } = await world();
  const laptop = await create('laptop');
  const ci = await create('ci');
  await runKeysRevoke({ id: ci.id }, cli.ctx);
  assert.match(cli.stdout(), `The current key for this Company is now ${laptop.id} 'laptop'.`);
  assert.is(cli.credentials.get(accounts.secretKey(cli.ctx.scope, companyId)), laptop.secret);
  assert.is(await validatedWith(cli), companyId);
  const mcp = createFakeCli({ url: server.url, env: { SVC_TOKEN: u.token } });
  for (const [k, v] of cli.credentials) mcp.credentials.set(k, v);
  mcp.ctx.config().set(`company:${mcp.ctx.scope}`, { id: companyId, name: 'Acme' });
  assert.is((await resolveMcpKeys(mcp.ctx)).secretKey, laptop.secret);

  const list = createFakeCli({ url: server.url, json: true, env: { SVC_TOKEN: u.token } });
  for (const [k, v] of cli.credentials) list.credentials.set(k, v);
  await runKeysList({}, list.ctx);
  const rows = JSON.parse(list.stdout()).filter((r: { kind: string }) => r.kind === 'secret');
  assert.equal(
    rows.map((r: { name: string; stored: string | null }) => [r.name, r.stored]),
    [['laptop', 'current']],
  );

  await runKeysRevoke({ id: laptop.id }, cli.ctx);
  assert.match(cli.stdout(), 'No other working key is stored for this Company');
  assert.is(cli.credentials.get(accounts.secretKey(cli.ctx.scope, companyId)), undefined);
  assert.is(cli.credentials.get(accounts.secretKeys(cli.ctx.scope, companyId)), undefined);
});

test('revoking a key that is not current leaves the current one; an expired key is never picked', async () => {
  const { u, cli, companyId, create } = await world();
  const old = await create('old');
  const laptop = await create('laptop');
  await runKeysRevoke({ id: old.id }, cli.ctx);
  assert.is(cli.credentials.get(accounts.secretKey(cli.ctx.scope, companyId)), laptop.secret);

  // A short-lived key, then a current one; once the short one has expired, revoking the current leaves none.
  const before = cli.stdout().length;
  await runKeysCreate({ root: companyId, name: 'brief', store: true, expires: '60' }, cli.ctx);
  const brief = /Created secret key (key_\S+)/.exec(cli.stdout().slice(before))![1]!;
  await runKeysUse({ id: laptop.id }, cli.ctx);
  assert.match(cli.stdout(), `Now using secret key ${laptop.id} 'laptop' for Company Acme.`);
  // An hour on, for the daemon and the CLI alike.
  t.clock.advance(3_600_000);
  const later = createFakeCli({ url: server.url, env: { SVC_TOKEN: u.token } });
  for (const [k, v] of cli.credentials) later.credentials.set(k, v);
  later.ctx.now = t.clock.now;
  await runKeysRevoke({ id: laptop.id }, later.ctx);
  assert.match(later.stdout(), 'No other working key is stored for this Company');
  assert.is(later.credentials.get(accounts.secretKey(later.ctx.scope, companyId)), undefined, 'nothing current');
  assert.ok(
    later.credentials.get(accounts.secretKeys(later.ctx.scope, companyId))!.includes(`"${brief}"`),
    'still stored',
  );
});

test('keys use: switches the current key; a key not stored here is refused with a hint', async () => {
  const { u, cli, companyId, create } = await world();
  const laptop = await create('laptop');
  await create('ci');
  await runKeysUse({ id: laptop.id }, cli.ctx);
  assert.is(cli.credentials.get(accounts.secretKey(cli.ctx.scope, companyId)), laptop.secret);
  const elsewhere = (await t.post('/api/keys', { root: companyId, name: 'server' }, u.auth)).body;
  const err = await runKeysUse({ id: elsewhere.id }, cli.ctx).catch((e) => e);
  assert.instance(err, NotFoundError);
  assert.match(err.message, `the secret key ${elsewhere.id} 'server' is not stored on this machine`);
});

test('a key stored by an older svc (only the current entry) is read, listed as current, kept beside a new one, and revocable', async () => {
  const { u, cli, companyId } = await world();
  const made = (await t.post('/api/keys', { root: companyId, name: 'legacy' }, u.auth)).body;
  cli.credentials.set(accounts.secretKey(cli.ctx.scope, companyId), made.secret_key);
  const before = cli.stdout().length;
  await runKeysCreate({ root: companyId, name: 'new', store: true }, cli.ctx);
  assert.match(cli.stdout().slice(before), `Also stored for this Company: ${made.secret_key.slice(0, 9)}…`);
  await runKeysUse({ id: made.id }, cli.ctx);
  assert.is(cli.credentials.get(accounts.secretKey(cli.ctx.scope, companyId)), made.secret_key);
  await runKeysRevoke({ id: made.id }, cli.ctx);
  assert.match(cli.stdout(), /The current key for this Company is now key_\S+ 'new'/);
});

test('rotate replaces the stored old key in place and keeps it current; the other stored key stays', async () => {
  const { cli, companyId, create } = await world();
  const laptop = await create('laptop');
  const ci = await create('ci');
  const before = cli.stdout().length;
  await runKeysRotate({ id: ci.id, overlap: '0', store: true }, cli.ctx);
  const fresh = /^\s+(sk_\S+)$/m.exec(cli.stdout().slice(before))![1]!;
  assert.is(cli.credentials.get(accounts.secretKey(cli.ctx.scope, companyId)), fresh);
  const all = JSON.parse(cli.credentials.get(accounts.secretKeys(cli.ctx.scope, companyId))!);
  assert.equal(
    all.map((k: { secret: string }) => k.secret),
    [laptop.secret, fresh],
  );
});

test.run();
