import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { defaultConfig } from '../../../daemon/config.js';
import { createIdGenerator } from '../../../daemon/ids.js';
import { silentLogger } from '../../../daemon/logger.js';
import { cryptoRandom } from '../../../daemon/random.js';
import type { OpenedRuntime } from '../../../daemon/company/open-company.js';
import { createRuntimeHost } from '../../../daemon/company/host.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { tempDir } from '../../helpers/temp-dir.js';

const company = { id: 'cmp_odd', name: 'odd', owner_id: 'usr_1' };
const hostOver = (dataDir: string) => {
  const clock = new FakeClock();
  return createRuntimeHost({
    config: defaultConfig({ dataDir }),
    clock,
    ids: createIdGenerator(clock, cryptoRandom),
    log: silentLogger,
    storage: 'file',
  });
};

/** Strings a JSON body can carry that a line-oriented or byte-counting store could mangle. */
const ODD = [
  'a\u0000b',
  'lone \ud800 high',
  'lone \udfff low',
  'line\u2028sep\u2029para',
  'new\nline\r\n',
  '😀 emoji',
  '\u202eRTL',
  'quote " and \\ backslash',
  '}\n{"id":"evt_forged"}',
];

// The sweep's data-safety half: what the API accepted must read back exactly, after a restart too.
test('odd strings in records and event content survive a restart byte for byte', async () => {
  const dataDir = tempDir();
  const host = hostOver(dataDir);
  const rt = (await host.open(company)) as OpenedRuntime;
  const agents = [];
  for (const name of ODD) agents.push(await rt.services.agents.create({ name, role: name }));
  const quest = await rt.services.quests.create({ title: ODD.join('|') });
  const emitted = await rt.services.events.emit({
    type: 'agent:odd',
    agent_id: agents[0]!.id,
    content: { texts: ODD, [ODD[3]!]: ODD[1] },
  });
  await host.close();

  const again = (await hostOver(dataDir).open(company)) as OpenedRuntime;
  assert.equal(
    (await again.services.agents.list()).map((a) => [a.name, a.role]),
    ODD.map((s) => [s.trim(), s.trim()]),
  );
  assert.is((await again.services.quests.get(quest.id))?.title, ODD.join('|').trim());
  const event = await again.services.events.occurrence(emitted.event.id);
  assert.equal(event?.content, { texts: ODD, [ODD[3]!]: ODD[1] });
  // The forged line inside a string stayed inside it: the log holds exactly the one event.
  assert.equal(
    (await again.services.events.list({})).events.map((e) => e.id),
    [emitted.event.id],
  );
  await again.close();
});

test.run();
