import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import { deliveryTargetOf, openedOf } from '../../../daemon/company/routes/opened-of.js';
import * as assert from 'uvu/assert';
import { defaultConfig } from '../../../daemon/config.js';
import { companyDataDir } from '../../../daemon/company/seam.js';
import { createIdGenerator } from '../../../daemon/ids.js';
import { silentLogger } from '../../../daemon/logger.js';
import { cryptoRandom } from '../../../daemon/random.js';
import { createRuntimeHost } from '../../../daemon/company/host.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { tempDir } from '../../helpers/temp-dir.js';

const company = { id: 'cmp_1', name: 'acme', owner_id: 'usr_1' };
const hostOver = (dataDir: string, storage: 'memory' | 'file') => {
  const clock = new FakeClock();
  return createRuntimeHost({
    config: defaultConfig({ dataDir }),
    clock,
    ids: createIdGenerator(clock, cryptoRandom),
    log: silentLogger,
    storage,
  });
};

test('concurrent opens of one Company share one runtime; another Company gets its own', async () => {
  const host = hostOver(tempDir(), 'memory');
  const [a, b] = await Promise.all([host.open(company), host.open(company)]);
  assert.is(a, b);
  const other = await host.open({ ...company, id: 'cmp_2' });
  assert.is.not(other, a);
  await a.services.agents.create({ name: 'only in 1' });
  assert.is((await other.services.agents.list()).length, 0);
});

test('file storage keeps agents, sessions, quests and configured events under the Company folder', async () => {
  const dataDir = tempDir();
  const host = hostOver(dataDir, 'file');
  const rt = await host.open(company);
  const agent = await rt.services.agents.create({ name: 'Ada' });
  await rt.services.sessions.create({ agent_id: agent.id });
  await rt.services.events.create({
    type: 'session:stopped',
    tool_calls: [{ tool: 'quests.create', args: { title: 'wrap up' } }],
  });
  await host.close();
  assert.ok(existsSync(join(companyDataDir(dataDir, company.id), 'runtime')), 'the Company journal folder');

  const again = await hostOver(dataDir, 'file').open(company);
  assert.is((await again.services.agents.get(agent.id))?.name, 'Ada');
  assert.is((await again.services.sessions.list()).length, 1);
  assert.is(
    (await again.services.events.listConfigured({ event_type: 'session:stopped' })).length,
    2,
    'the seeded marker and ours',
  );
});

test('a discarded Company is not opened again: its folder stays gone, the open is refused as not found', async () => {
  const dataDir = tempDir();
  const host = hostOver(dataDir, 'file');
  const rt = await host.open(company);
  await rt.services.agents.create({ name: 'Ada' });
  await host.discard(company.id);
  assert.not.ok(existsSync(companyDataDir(dataDir, company.id)));
  // A request that passed the Company check before the delete landed, asking for the runtime after it.
  const late = await host.open(company).then(
    () => null,
    (err: { code?: string }) => err,
  );
  assert.is(late?.code, 'company_not_found');
  assert.not.ok(existsSync(companyDataDir(dataDir, company.id)), 'no empty folder made anew');
  assert.equal(host.opened(), []);
  await host.open({ ...company, id: 'cmp_2' }); // other Companies open as before
  await host.close();
});

test('a runtime refuses a request whose tenant is another Company', async () => {
  const rt = await hostOver(tempDir(), 'memory').open(company);
  const ctx = {
    state: { tenant: { company: { ...company, id: 'cmp_other' } }, companyRuntime: rt },
    path: '/api/agents',
    method: 'GET',
  } as any;
  assert.throws(() => openedOf(ctx), /got a request for cmp_other/);
  // A webhook delivery reaches its own route and no other, and no other caller reaches that one.
  const own = { ...ctx, state: { ...ctx.state, tenant: { company, via: 'webhook' } } };
  assert.throws(() => openedOf(own), /webhook caller reached/);
  assert.is(deliveryTargetOf(own), rt);
  assert.throws(() => deliveryTargetOf({ ...ctx, state: { ...ctx.state, tenant: { company, via: 'session' } } }));
});

test.run();
