import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runCompaniesCreate } from '../../../cli/commands/companies/create.js';
import { runCompaniesInvite } from '../../../cli/commands/companies/invite.js';
import { runCompaniesJoin } from '../../../cli/commands/companies/join.js';
import { runCompaniesLeave } from '../../../cli/commands/companies/leave.js';
import { runCompaniesList } from '../../../cli/commands/companies/list.js';
import { runCompaniesMembers } from '../../../cli/commands/companies/members.js';
import { runCompaniesRemove } from '../../../cli/commands/companies/remove.js';
import { runCompaniesRole } from '../../../cli/commands/companies/role.js';
import { runCompaniesTransfer } from '../../../cli/commands/companies/transfer.js';
import { UsageError } from '../../../cli/errors.js';
import { reportError } from '../../../cli/report-error.js';
import { createUser } from '../../helpers/accounts.js';
import { createFakeCli } from '../../helpers/cli.js';
import { createTestApp, serveTestApp, type TestApp } from '../../helpers/test-app.js';

/** `svc companies members|invite|join|role|remove|leave|transfer` against a real socket. */
const test = suite('cli: a Company team');

let t: TestApp;
let server: { url: string; close(): Promise<void> };
test.before(async () => {
  t = await createTestApp();
  server = await serveTestApp(t);
});
test.after(() => server.close());

const cliFor = (token: string, json = false) => createFakeCli({ url: server.url, json, env: { SVC_TOKEN: token } });
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

test('invite → join → members, role, transfer, leave, remove; refusals are one line and exit non-zero', async () => {
  const alice = await createUser(t, { tier: 'company' });
  const bob = await createUser(t);
  const carol = await createUser(t);
  const a = cliFor(alice.token);
  await runCompaniesCreate({ name: 'Acme' }, a.ctx);
  await runCompaniesInvite({ email: bob.user.email!, role: 'admin' }, a.ctx);
  assert.match(a.stdout(), /Invited .* as admin \(inv_/);
  const code = (await t.deps.stores.outbox.list({ to: bob.user.email! })).at(-1)!.code!;
  const b = cliFor(bob.token);
  await runCompaniesJoin({ code }, b.ctx);
  assert.match(b.stdout(), /You joined Acme \(cmp_\S+\) as admin/);
  const companyId = /\((cmp_\S+)\)/.exec(b.stdout())![1]!;

  const listed = cliFor(bob.token, true);
  await runCompaniesList({}, listed.ctx);
  assert.equal(
    JSON.parse(listed.stdout()).map((c: any) => [c.name, c.role]),
    [['Acme', 'admin']],
  );

  await runCompaniesInvite({ email: carol.user.email!, role: 'viewer', company: companyId }, b.ctx);
  await runCompaniesJoin(
    { code: (await t.deps.stores.outbox.list({ to: carol.user.email! })).at(-1)!.code! },
    cliFor(carol.token).ctx,
  );
  await runCompaniesRole({ member: carol.user.email!, role: 'member', company: companyId }, b.ctx);
  assert.match(b.stdout(), /is now member \(was viewer\)/);

  const members = cliFor(alice.token, true);
  await runCompaniesMembers({ company: companyId }, members.ctx);
  assert.equal(
    JSON.parse(members.stdout()).map((m: any) => m.role),
    ['owner', 'admin', 'member'],
  );

  const stays = await failure(() => runCompaniesLeave({}, a.ctx));
  assert.is(stays.exit, 1);
  assert.match(stays.stderr, /^svc: The owner cannot leave/);
  assert.is(
    stays.stderr
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('svc:')).length,
    1,
  );
  const badRole = await failure(() => runCompaniesRole({ member: carol.user.email!, role: 'owner' }, a.ctx));
  assert.equal([badRole.exit, /svc: the role must be one of/.test(badRole.stderr)], [2, true]);
  assert.instance(
    await runCompaniesInvite({ email: 'x@example.com', role: 'boss' }, a.ctx).catch((e) => e),
    UsageError,
  );
  const notAllowed = await failure(() =>
    runCompaniesInvite({ email: 'y@example.com', company: companyId }, cliFor(carol.token).ctx),
  );
  assert.match(notAllowed.stderr, /^svc: .*members:write/);

  await runCompaniesTransfer({ member: bob.user.email! }, a.ctx);
  assert.match(a.stdout(), /now owns the Company; you are an admin/);
  await runCompaniesRemove({ member: carol.user.email!, company: companyId }, b.ctx);
  assert.match(b.stdout(), /Removed .* from the Company/);
  await runCompaniesLeave({ company: companyId }, a.ctx);
  assert.match(a.stdout(), /You left the Company/);
  const gone = await failure(() => runCompaniesMembers({ company: companyId }, a.ctx));
  assert.match(gone.stderr, /^svc: no Company/);
});

test.run();
