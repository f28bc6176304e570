import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runAccountKeyRotate } from '../../../cli/commands/account-key/rotate.js';
import { runCompaniesCreate } from '../../../cli/commands/companies/create.js';
import { runCompaniesList } from '../../../cli/commands/companies/list.js';
import { runCompaniesUse } from '../../../cli/commands/companies/use.js';
import { runKeysCreate } from '../../../cli/commands/keys/create.js';
import { runKeysList } from '../../../cli/commands/keys/list.js';
import { runKeysRevoke } from '../../../cli/commands/keys/revoke.js';
import { runKeysValidate } from '../../../cli/commands/keys/validate.js';
import { accounts } from '../../../cli/credentials/store.js';
import { ApiRequestError, AuthRequiredError, UsageError } from '../../../cli/errors.js';
import { reportError } from '../../../cli/report-error.js';
import { keyProblem } from '../../../shared/keys.js';
import { createUser } from '../../helpers/accounts.js';
import { createFakeCli } from '../../helpers/cli.js';
import { createTestApp, serveTestApp, type TestApp } from '../../helpers/test-app.js';

/** The CLI's run functions against a real socket (undici), with a fake credential store. */
const test = suite('cli: companies, keys, account-key');

let t: TestApp;
let server: { url: string; close(): Promise<void> };
test.before(async () => {
  t = await createTestApp();
  server = await serveTestApp(t);
});
test.after(() => server.close());

const cliFor = (token: string, options: { json?: boolean; env?: Record<string, string> } = {}) =>
  createFakeCli({ url: server.url, json: options.json, env: { SVC_TOKEN: token, ...options.env } });

test('companies create makes the first one current; list marks it; use switches', async () => {
  const u = await createUser(t, { tier: 'company' });
  const cli = cliFor(u.token);
  await runCompaniesCreate({ name: 'Alpha' }, cli.ctx);
  await runCompaniesCreate({ name: 'Beta' }, cli.ctx);
  assert.match(cli.stdout(), /Created Company Alpha \(cmp_/);
  assert.match(cli.stdout(), /Alpha is now your current Company/);
  assert.not.match(cli.stdout(), /Beta is now your current/);
  await runCompaniesList({}, cli.ctx);
  assert.match(cli.stdout(), /^\*\s+Alpha\s+cmp_/m);
  await runCompaniesUse({ company: 'Beta' }, cli.ctx);
  assert.match(cli.stdout(), /Now using Company Beta/);
  const json = cliFor(u.token, { json: true });
  json.ctx.config().set(`company:${server.url}`, cli.ctx.config().get(`company:${server.url}`));
  await runCompaniesList({}, json.ctx);
  const listed = JSON.parse(json.stdout());
  assert.equal(
    listed.map((c: any) => [c.name, c.current]),
    [
      ['Alpha', false],
      ['Beta', true],
    ],
  );
  try {
    await runCompaniesCreate({ name: 'alpha' }, cli.ctx);
    assert.unreachable();
  } catch (err) {
    assert.instance(err, ApiRequestError);
    assert.is((err as ApiRequestError).status, 409);
  }
});

test('keys create prints the key once and stores it; --no-store only prints; list and validate; revoke forgets it', async () => {
  const u = await createUser(t, { tier: 'company' });
  const cli = cliFor(u.token);
  await runCompaniesCreate({ name: 'Acme' }, cli.ctx);
  await runKeysCreate({ root: 'Acme', name: 'laptop', store: true }, cli.ctx);
  const key = /^\s+(sk_\S+)$/m.exec(cli.stdout())![1]!;
  assert.is(keyProblem('secret', key), null);
  const companyId = /Company Acme \((cmp_\S+)\)/.exec(cli.stdout())![1]!;
  assert.is(cli.credentials.get(accounts.secretKey(cli.ctx.scope, companyId)), key);
  assert.match(cli.stdout(), /shown only once/);

  const printOnly = cliFor(u.token, { json: true });
  await runKeysCreate({ root: companyId, name: 'ci', store: false }, printOnly.ctx);
  const created = JSON.parse(printOnly.stdout());
  assert.is(created.stored, false);
  assert.is(printOnly.credentials.size, 0);

  await runAccountKeyRotate({ store: true }, cli.ctx);
  const ak = cli.credentials.get(accounts.accountKey(cli.ctx.scope))!;
  assert.is(keyProblem('account', ak), null);

  await runKeysList({}, cli.ctx);
  assert.match(cli.stdout(), /laptop\s+Acme\s+sk_\S{6}…/);
  assert.not.ok(
    cli
      .stdout()
      .split('\n')
      .filter((l) => l.includes('laptop') && l.includes('Acme'))
      .some((l) => l.includes(key)),
  );

  const v = cliFor(u.token, { json: true });
  for (const [k, val] of cli.credentials) v.credentials.set(k, val);
  v.ctx.config().set(`company:${server.url}`, { id: companyId, name: 'Acme' });
  await runKeysValidate({}, v.ctx);
  const validated = JSON.parse(v.stdout());
  assert.equal([validated.user.id, validated.company.id, validated.account_key], [u.user.id, companyId, true]);

  const keyId = (await t.get('/api/keys', u.auth)).body.keys.find((k: any) => k.name === 'laptop').id;
  await runKeysRevoke({ id: keyId }, cli.ctx);
  assert.match(cli.stdout(), /Removed it from the local credential store/);
  assert.is(cli.credentials.get(accounts.secretKey(cli.ctx.scope, companyId)), undefined);
  const stale = cliFor(u.token, { env: { SVC_SECRET_KEY: key } });
  try {
    await runKeysValidate({}, stale.ctx);
    assert.unreachable();
  } catch (err) {
    assert.instance(err, AuthRequiredError);
  }
});

test('a trial account gets the 402 message and a hint, never a stack trace', async () => {
  const u = await createUser(t, { tier: 'trial' });
  const cli = cliFor(u.token);
  await runCompaniesCreate({ name: 'Trial Co' }, cli.ctx);
  let caught: unknown;
  try {
    await runKeysCreate({ root: 'Trial Co', name: 'x', store: true }, cli.ctx);
  } catch (err) {
    caught = err;
  }
  const out = createFakeCli();
  const code = reportError(caught, out.ctx.io);
  assert.is(code, 1);
  assert.match(out.stderr(), /^svc: cannot create a secret key: MCP access requires a Company subscription/);
  assert.match(
    out.stderr(),
    `hint: secret keys need the company or owner tier; on a local daemon the operator grants it: 'svc admin tier ${u.user.email} company'`,
  );
  assert.not.match(out.stderr(), '<email>');
  assert.not.match(out.stderr(), /\n\s+at /);
});

test('malformed keys are refused before anything is sent', async () => {
  const cli = cliFor('unused', { env: { SVC_SECRET_KEY: 'sk_tooShort' } });
  try {
    await runKeysValidate({}, cli.ctx);
    assert.unreachable();
  } catch (err) {
    assert.instance(err, UsageError);
    assert.match((err as Error).message, /SVC_SECRET_KEY/);
  }
  try {
    await runKeysRevoke({ id: 'sk_nope' }, cliFor((await createUser(t, { tier: 'company' })).token).ctx);
    assert.unreachable();
  } catch (err) {
    assert.match((err as Error).message, /no secret key sk_nope/);
  }
});

test.run();
