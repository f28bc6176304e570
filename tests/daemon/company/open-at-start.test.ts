import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { randomBytes } from 'node:crypto';
import { resolveConfig, startDaemon } from '../../../daemon/main.js';
import { ensureDataDir } from '../../../daemon/data-dir.js';
import { systemClock } from '../../../daemon/clock.js';
import { createIdGenerator } from '../../../daemon/ids.js';
import { cryptoRandom } from '../../../daemon/random.js';
import { openFileStores } from '../../../daemon/store/index.js';
import { createSealer } from '../../../daemon/store/sealer.js';
import type { OpenedRuntime } from '../../../daemon/company/open-company.js';
import { tempDir } from '../../helpers/temp-dir.js';

test('the daemon opens every Company runtime at start, so their schedules run without a request', async () => {
  const data = tempDir('svc-open-all');
  ensureDataDir(data);
  const stores = await openFileStores(data, {
    clock: systemClock,
    ids: createIdGenerator(systemClock, cryptoRandom),
    sealer: createSealer(randomBytes(32)),
    outboxMax: 10,
  });
  for (const id of ['cmp_one', 'cmp_two'])
    await stores.companies.create({ id, name: id, owner_id: 'usr_x', created_at: new Date().toISOString() });
  await stores.flush();
  const daemon = await startDaemon({ port: 0, host: '127.0.0.1', data }, { SVC_SCHEDULE_MISSED: 'skip' });
  try {
    const opened = (daemon.deps.runtimes as unknown as { opened(): OpenedRuntime[] }).opened();
    assert.equal(opened.map((r) => r.services.company.id).sort(), ['cmp_one', 'cmp_two']);
    assert.is(daemon.deps.config.scheduleMissed, 'skip');
  } finally {
    await daemon.stop();
  }
});

test('an unknown missed-tick policy is refused at start', () => {
  assert.throws(
    () => resolveConfig({ port: 0, data: tempDir('svc-bad-policy') }, { SVC_SCHEDULE_MISSED: 'sometimes' }),
    /use latest, skip or all/,
  );
});

test.run();
