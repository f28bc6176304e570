import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runCompaniesCreate } from '../../../cli/commands/companies/create.js';
import { runCompaniesDelete } from '../../../cli/commands/companies/delete.js';
import { runCompaniesUse } from '../../../cli/commands/companies/use.js';
import { currentCompanyKey } from '../../../cli/company.js';
import { reportError } from '../../../cli/report-error.js';
import { createUser } from '../../helpers/accounts.js';
import { createFakeCli } from '../../helpers/cli.js';
import { joinAs } from '../../helpers/team.js';
import { createTestApp, serveTestApp, type TestApp } from '../../helpers/test-app.js';

/** `svc companies delete <company> [--yes]` against a real socket. */
const test = suite('cli: deleting a Company');

let t: TestApp;
let server: { url: string; close(): Promise<void> };
test.before(async () => {
  t = await createTestApp();
  server = await serveTestApp(t);
});
test.after(() => server.close());

const cliFor = (token: string, options: { json?: boolean; stdin?: string } = {}) =>
  createFakeCli({ url: server.url, ...options, env: { SVC_TOKEN: token } });
const failure = async (run: () => Promise<unknown>) => {
  let caught: unknown;
  try {
    await run();
  } catch (err) {
    caught = err;
  }
  const out = createFakeCli();
  return { exit: reportError(caught, out.ctx.io), stderr: out.stderr() };
};
const exists = async (id: string) => Boolean(await t.deps.stores.companies.findById(id));

test('without a terminal it needs --yes; on one, the typed name must match; then it is gone', async () => {
  const ada = await createUser(t, { tier: 'company' });
  const a = cliFor(ada.token);
  await runCompaniesCreate({ name: 'Acme' }, a.ctx);
  const [co] = await t.deps.stores.companies.listByOwner(ada.user.id);

  const script = await failure(() => runCompaniesDelete({ company: 'Acme' }, a.ctx));
  assert.is(script.exit, 2);
  assert.match(script.stderr, /^svc: deleting Acme cannot be undone/);
  assert.match(script.stderr, /--yes/);

  const typo = cliFor(ada.token, { stdin: 'acme\n' });
  const mismatch = await failure(() => runCompaniesDelete({ company: 'Acme' }, { ...typo.ctx, interactive: true }));
  assert.match(mismatch.stderr, /the name did not match; nothing was deleted/);
  assert.ok(await exists(co!.id));

  const typed = cliFor(ada.token, { stdin: 'Acme\n' });
  await runCompaniesUse({ company: 'Acme' }, typed.ctx);
  await runCompaniesDelete({ company: co!.id }, { ...typed.ctx, interactive: true });
  assert.match(typed.stdout(), /Deleted Acme \(cmp_\S+\): 0 key\(s\) revoked/);
  assert.not.ok(await exists(co!.id));
  assert.is(typed.ctx.config().get(currentCompanyKey(typed.ctx.scope)), undefined, 'the current Company is forgotten');
});

test('--yes for scripts, with --json; an admin is refused in one line', async () => {
  const ada = await createUser(t, { tier: 'company' });
  await runCompaniesCreate({ name: 'Beta' }, cliFor(ada.token).ctx);
  const [co] = await t.deps.stores.companies.listByOwner(ada.user.id);
  const bob = await joinAs(t, ada, co!.id, 'admin');

  const refused = await failure(() => runCompaniesDelete({ company: co!.id, yes: true }, cliFor(bob.token).ctx));
  assert.is(refused.exit, 1);
  assert.match(refused.stderr, /^svc: .*company:delete/);
  assert.ok(await exists(co!.id));

  const json = cliFor(ada.token, { json: true });
  await runCompaniesDelete({ company: 'Beta', yes: true }, json.ctx);
  assert.equal(JSON.parse(json.stdout()), {
    ok: true,
    id: co!.id,
    name: 'Beta',
    deleted: true,
    members_removed: 1,
    invitations_revoked: 0,
    keys_revoked: 0,
  });
});

test.run();
