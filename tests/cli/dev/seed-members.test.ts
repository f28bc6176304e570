import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runSeed } from '../../../cli/commands/dev/seed.js';
import { UsageError } from '../../../cli/errors.js';
import { devLoopSetUp, jsonFile } from '../../helpers/dev-loop.js';

/** A team of three from a seed file: the owner invites by mail, each member accepts with their own session. */
const TEAM = {
  users: {
    ada: { email: 'ada@example.com', password: 'correct horse battery', tier: 'company' },
    bob: { email: 'bob@example.com', password: 'another long password' },
    cleo: { email: 'cleo@example.com', password: 'a third long password' },
  },
  companies: { acme: { name: 'acme', owner: 'ada' } },
  members: {
    bob: { company: 'acme', user: 'bob', role: 'admin' },
    cleo: { company: 'acme', user: 'cleo', role: 'viewer' },
  },
};

async function rolesIn(t: Awaited<ReturnType<typeof devLoopSetUp>>['t']) {
  const ada = await t.deps.stores.users.findByEmail('ada@example.com');
  const [co] = await t.deps.stores.companies.listByOwner(ada!.id);
  const rows = await t.deps.stores.members.listMembers(co!.id);
  const emails = await Promise.all(rows.map(async (m) => (await t.deps.stores.users.findById(m.user_id))?.email));
  return rows.map((m, i) => [emails[i], m.role, m.invited_by === ada!.id]);
}

test('members are invited and accept on the daemon; a rerun makes nothing and applies a changed role', async () => {
  const d = await devLoopSetUp();
  try {
    await runSeed({ file: jsonFile(TEAM) }, d.cli.ctx);
    assert.match(d.cli.stdout(), /created {2}members\.bob {2}usr_/);
    assert.equal(await rolesIn(d.t), [
      ['bob@example.com', 'admin', true],
      ['cleo@example.com', 'viewer', true],
    ]);
    const invited = await d.t.deps.stores.outbox.list({ to: 'cleo@example.com' });
    assert.is(invited.length, 1, 'one invitation mail, with its code');

    const again = d.again();
    await runSeed({ file: jsonFile(TEAM) }, again.ctx);
    assert.not.match(again.stdout(), /created/);
    assert.is((await d.t.deps.stores.outbox.list({ to: 'cleo@example.com' })).length, 1, 'no second invitation');

    const promoted = { ...TEAM, members: { ...TEAM.members, cleo: { company: 'acme', user: 'cleo', role: 'member' } } };
    await runSeed({ file: jsonFile(promoted) }, d.again().ctx);
    assert.equal((await rolesIn(d.t))[1], ['cleo@example.com', 'member', true]);
  } finally {
    await d.close();
  }
});

test('a member entry with a bad role, or naming the owner, is a usage error', async () => {
  const d = await devLoopSetUp();
  try {
    for (const [member, message] of [
      [{ company: 'acme', user: 'bob', role: 'owner' }, /must be one of admin, member, viewer/],
      [{ company: 'acme', user: 'bob', role: 'boss' }, /must be one of admin, member, viewer/],
      [{ company: 'acme', user: 'ada', role: 'admin' }, /ada owns acme already/],
      [{ company: 'acme', user: 'zed', role: 'admin' }, /'zed' is not among the seeded users/],
    ] as const) {
      const file = jsonFile({ ...TEAM, members: { x: member } });
      try {
        await runSeed({ file }, d.again().ctx);
        assert.unreachable(`accepted ${JSON.stringify(member)}`);
      } catch (err) {
        assert.instance(err, UsageError);
        assert.match((err as Error).message, message);
      }
    }
  } finally {
    await d.close();
  }
});

test.run();
