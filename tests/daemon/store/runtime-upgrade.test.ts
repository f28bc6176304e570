import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { defaultConfig } from '../../../daemon/config.js';
import { companyDataDir } from '../../../daemon/gateway/seam.js';
import { createIdGenerator } from '../../../daemon/ids.js';
import { silentLogger } from '../../../daemon/logger.js';
import { cryptoRandom } from '../../../daemon/random.js';
import { createRuntimeHost } from '../../../daemon/runtime/host.js';
import { LEGACY_FILES } from '../../../daemon/store/runtime/import-legacy.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { tempDir } from '../../helpers/temp-dir.js';

/** A Company folder as the release before the journal wrote it, opened by this one: upgraded in place. */
const company = { id: 'cmp_1', name: 'acme', owner_id: 'usr_1' };
const AT = '2026-01-15T12:00:00.000Z';
const hostOver = (dataDir: string) => {
  const clock = new FakeClock(Date.parse('2026-02-01T00:00:00Z'));
  return createRuntimeHost({
    config: defaultConfig({ dataDir }),
    clock,
    ids: createIdGenerator(clock, cryptoRandom),
    log: silentLogger,
    storage: 'file',
  });
};

// In the order the old release wrote a session's fields (the transcript before created_at).
const oldSession = {
  id: 'ses_1',
  agent_id: 'agt_1',
  status: 'active',
  gateway_channel_id: 'ci',
  transcript: [
    { at: AT, from: 'user', text: 'hello' },
    { at: AT, from: 'agt_1', text: 'hi!' },
  ],
  created_at: AT,
  turn_status: 'idle',
  turns_completed: 1,
  context_budget: 100000,
  context_used: 9,
  stopped_at: null,
};
const marker = {
  id: 'cev_1',
  type: 'session:start',
  tool_calls: [],
  agent_id: null,
  session_id: 'ses_1',
  quest_id: null,
  enabled: true,
  status: 'active',
  matcher: null,
  timezone: null,
  created_at: AT,
};
const hourly = {
  ...marker,
  id: 'cev_2',
  type: 'schedule:@hourly',
  session_id: null,
  tool_calls: [{ tool: 'quests.create', args: { title: 'tick' } }],
  enabled_at: AT,
};
const legacy: Record<string, unknown> = {
  'runtime.json': {
    agents: { agt_1: { id: 'agt_1', name: 'Ada', role: 'ops', created_at: AT } },
    sessions: { ses_1: oldSession },
    quests: {
      qst_1: {
        id: 'qst_1',
        title: 'Ship',
        status: 'in_progress',
        agent_id: 'agt_1',
        session_id: 'ses_1',
        result: null,
        created_at: AT,
        updated_at: AT,
      },
    },
    configured: { cev_1: marker, cev_2: hourly },
  },
  'firings.json': {
    firings: { evt_old: [{ configured_event_id: 'cev_2', tool: 'quests.create', ok: true, result: { id: 'qst_1' } }] },
  },
  'schedule-ticks.json': { cursors: { cev_2: { last_tick: '2026-01-31T23:00:00.000Z', active: true, baseline: AT } } },
  'channels.json': {
    channels: [
      {
        name: 'ci',
        secret_sealed: 'sealed-by-old-key',
        previous_sealed: null,
        previous_until: null,
        created_at: AT,
        rotated_at: null,
      },
    ],
  },
  'questions.json': {
    questions: [
      {
        id: 'qn_1',
        agent_id: 'agt_1',
        session_id: 'ses_1',
        quest_id: null,
        question: 'Deploy?',
        options: null,
        asked_event_id: null,
        status: 'open',
        answer: null,
        answered_by: null,
        created_at: AT,
        answered_at: null,
      },
    ],
  },
};

function writeOldFolder(dataDir: string): string {
  const dir = companyDataDir(dataDir, company.id);
  mkdirSync(dir, { recursive: true });
  for (const [name, doc] of Object.entries(legacy)) writeFileSync(join(dir, name), JSON.stringify(doc));
  return dir;
}

async function assertEverythingThere(dataDir: string): Promise<void> {
  const host = hostOver(dataDir);
  const rt = await host.open(company);
  const s = rt.services;
  assert.equal(await s.agents.list(), [{ id: 'agt_1', name: 'Ada', role: 'ops', created_at: AT }]);
  assert.equal(
    await s.sessions.get('ses_1'),
    { ...oldSession, transcript_total: oldSession.transcript.length },
    'the session, transcript included, as the old release answered it',
  );
  assert.equal(
    Object.keys((await s.sessions.get('ses_1'))!),
    [...Object.keys(oldSession), 'transcript_total'],
    'fields in the same order (transcript_total is new)',
  );
  assert.equal(
    (await s.quests.list({ session_id: 'ses_1' })).map((q) => q.title),
    ['Ship'],
  );
  assert.equal(
    (await s.events.listConfigured({ event_type: 'schedule:@hourly' })).map((c) => c.id),
    ['cev_2'],
  );
  assert.equal(
    await (rt as any).services.events.trace('evt_old'),
    null,
    'the old event is not in this empty log: trace says so',
  );
  const opened = (rt as any).questions;
  assert.equal(
    (await opened.list()).map((q: { id: string }) => q.id),
    ['qn_1'],
  );
  // A message appended after the upgrade goes after the imported ones.
  const after = await s.sessions.append('ses_1', { from: 'user', text: 'still here' });
  assert.equal(
    after.transcript.map((m) => m.text),
    ['hello', 'hi!', 'still here'],
  );
  await host.close();
}

test('an old Company folder opens with everything in it, and its files are kept as .pre-journal backups', async () => {
  const dataDir = tempDir('svc-upgrade');
  const dir = writeOldFolder(dataDir);
  await assertEverythingThere(dataDir);
  for (const name of LEGACY_FILES) {
    assert.not.ok(existsSync(join(dir, name)), `${name} moved away`);
    assert.equal(
      JSON.parse(readFileSync(join(dir, `${name}.pre-journal`), 'utf8')),
      legacy[name],
      `${name} kept as it was`,
    );
  }
  // A second start imports nothing again: the transcript has the one message added since, once.
  const rt = await hostOver(dataDir).open(company);
  assert.equal((await rt.services.sessions.get('ses_1'))!.transcript.length, 3);
  assert.is((await rt.services.agents.list()).length, 1);
});

test('a crash after the import but before the rename: the next start only renames', async () => {
  const dataDir = tempDir('svc-upgrade');
  const dir = writeOldFolder(dataDir);
  const host = hostOver(dataDir);
  await (await host.open(company)).services.sessions.append('ses_1', { from: 'user', text: 'after' });
  await host.close();
  // As if the daemon died between the durable import and the rename: the old files are back in place
  // (one changed, to show it is not read again).
  for (const name of LEGACY_FILES) renameSync(join(dir, `${name}.pre-journal`), join(dir, name));
  const changed = {
    ...(legacy['runtime.json'] as object),
    agents: { agt_9: { id: 'agt_9', name: 'Ghost', role: null, created_at: AT } },
  };
  writeFileSync(join(dir, 'runtime.json'), JSON.stringify(changed));
  const rt = await hostOver(dataDir).open(company);
  const s = (await rt.services.sessions.get('ses_1'))!;
  assert.equal(
    s.transcript.map((m) => m.text),
    ['hello', 'hi!', 'after'],
    'not imported twice',
  );
  assert.is(s.context_used, 9 + 'after'.length, 'the session as changed after the import');
  assert.equal(
    (await rt.services.agents.list()).map((a) => a.id),
    ['agt_1'],
  );
  assert.is((await (rt as any).questions.list()).length, 1);
  for (const name of LEGACY_FILES)
    assert.ok(existsSync(join(dir, `${name}.pre-journal`)) && !existsSync(join(dir, name)));
});

test('a damaged old file refuses to open, and is left untouched', async () => {
  const dataDir = tempDir('svc-upgrade');
  const dir = writeOldFolder(dataDir);
  writeFileSync(join(dir, 'firings.json'), '{"firings": {');
  try {
    await hostOver(dataDir).open(company);
    assert.unreachable('the runtime should not open');
  } catch (err) {
    assert.match((err as Error).message, /firings\.json is not valid JSON/);
  }
  assert.is(readFileSync(join(dir, 'firings.json'), 'utf8'), '{"firings": {');
  // What was readable is in the journal already; fixing the file lets the next start finish the upgrade.
  writeFileSync(join(dir, 'firings.json'), JSON.stringify(legacy['firings.json']));
  await assertEverythingThere(dataDir);
});

test.run();
