import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FakeClock } from './fake-clock.js';
import { openEventLog } from '../../daemon/store/event-log/index.js';
import { openJournalRuntimeStores } from '../../daemon/store/runtime/open.js';
import { companyDataDir } from '../../daemon/company/seam.js';
import { readDataFolder } from '../../daemon/transfer/folder-source.js';
import type { ArchiveRecord } from '../../daemon/transfer/archive-tables.js';
import { tempDir } from './temp-dir.js';

const AT = '2026-01-15T12:00:00.000Z';
export const HEX = (c: string) => c.repeat(64);

/**
 * A data folder whose Company holds a record in every runtime table and a few events (one whose
 * text carries a NUL and non-ASCII, as users send), plus the four secret files; no accounts.
 * What the store-level transfer tests move around.
 */
export async function runtimeFolder(company = 'cmp_transfer1'): Promise<string> {
  const dir = tempDir('svc-transfer-src');
  writeFileSync(join(dir, 'jwt-secret'), `${HEX('a')}\n`, { mode: 0o600 });
  writeFileSync(join(dir, 'operator-token'), 'op_token\n', { mode: 0o600 });
  writeFileSync(join(dir, 'mail-key'), `${HEX('b')}\n`, { mode: 0o600 });
  writeFileSync(join(dir, 'code-key'), `${HEX('c')}\n`, { mode: 0o600 });
  const folder = companyDataDir(dir, company);
  mkdirSync(folder, { recursive: true });
  const s = await openJournalRuntimeStores(folder);
  await s.agents.create({ id: 'agt_1', name: 'Ada', role: 'ops', created_at: AT });
  await s.agents.create({ id: 'agt_2', name: 'Bob', role: null, created_at: AT });
  const session = {
    id: 'ses_1',
    agent_id: 'agt_1',
    status: 'active' as const,
    gateway_channel_id: null,
    created_at: AT,
    turn_status: 'idle' as const,
    turns_completed: 0,
    context_budget: null,
    context_used: 0,
    stopped_at: null,
    message_count: 0,
  };
  const cfg = {
    id: 'cev_1',
    type: 'deploy:done',
    tool_calls: [{ tool: 'quests.create', args: { title: 'x' } }],
    agent_id: null,
    session_id: 'ses_1',
    quest_id: null,
    enabled: true,
    status: 'active' as const,
    matcher: null,
    timezone: null,
    created_at: AT,
  };
  await s.sessions.create(session, [cfg as never]);
  for (const text of ['one', 'zero\u0000byte ünï', 'three'])
    await s.transcripts.append('ses_1', { at: AT, from: 'user', text }, (x) => x);
  await s.quests.create({
    id: 'qst_1',
    title: 'ship',
    status: 'open',
    agent_id: 'agt_1',
    session_id: 'ses_1',
    result: null,
    created_at: AT,
    updated_at: AT,
  } as never);
  await s.firings.add('evt_0000000000000002', [{ configured_event_id: 'cev_1', tool: 'quests.create', ok: true }]);
  await s.firings.add('evt_0000000000000002', [
    { configured_event_id: 'cev_1', tool: 'quests.create', ok: false, error: 'no' },
  ]);
  const retry = {
    id: 'evt_0000000000000002|cev_1|0',
    event_id: 'evt_0000000000000002',
    configured_event_id: 'cev_1',
    call_index: 0,
    call: { tool: 'quests.create', args: { title: 'x' } },
    policy: { max_attempts: 3, backoff: { initial_ms: 1000, max_ms: 60_000, jitter: 'full' as const } },
    attempt: 2,
    due_ms: Date.parse(AT) + 1000,
    last_delay_ms: 1000,
    state: 'pending' as const,
    lease_until_ms: null,
  };
  await s.firings.add('evt_0000000000000003', [], [], { put: [retry] });
  await s.ticks.commit([{ id: 'cev_1', active: true, baseline: AT, tick: '2026-01-15T12:01:00.000Z' }]);
  await s.channels.create({
    name: 'github',
    secret_sealed: 'sealed',
    previous_sealed: null,
    previous_until: null,
    created_at: AT,
    rotated_at: null,
  });
  await s.questions.add({
    id: 'qtn_1',
    agent_id: 'agt_1',
    session_id: null,
    quest_id: null,
    question: 'go?',
    options: ['yes', 'no'],
    asked_event_id: null,
    status: 'open',
    answer: null,
    answered_by: null,
    created_at: AT,
    answered_at: null,
  });
  await s.deliveries.firstSeen('github\u0000d1', Date.parse(AT));
  await s.idempotency.remember('trigger\u0000k1', { fingerprint: 'f1', answer: { ok: true } }, Date.parse(AT));
  await s.settings.put('chain_budget', { max_firings: 50, max_tool_calls: null, within_ms: 600_000 });
  for (const replayed of [false, true])
    await s.failures.add({
      id: `evt_000000000000000${replayed ? 3 : 2}|cev_1|0`,
      event_id: `evt_000000000000000${replayed ? 3 : 2}`,
      configured_event_id: 'cev_1',
      call_index: 0,
      call: { tool: 'quests.create', args: { title: 'zero\u0000byte' } },
      tool: 'quests.create',
      error: 'no ünï',
      attempts: 3,
      failed_at: AT,
      replayed_at: replayed ? AT : null,
      replay_event_id: replayed ? 'evt_0000000000000004' : null,
    });
  await s.close();
  const log = await openEventLog(folder, { clock: new FakeClock() });
  const none = { agent_id: null, session_id: null, quest_id: null, causation_id: null };
  const first = await log.append({ ...none, type: 'session:start', session_id: 'ses_1', content: { a: [1, 'ü'] } });
  await log.append({ ...none, type: 'deploy:done', causation_id: first.id, correlation_id: first.id, content: null });
  await log.append({ ...none, type: 'note', agent_id: 'agt_1', content: { text: 'zero\u0000byte' } });
  await log.close();
  return dir;
}

/** Every record a data folder holds, as an export reads them. */
export async function recordsOf(dir: string): Promise<ArchiveRecord[]> {
  const out: ArchiveRecord[] = [];
  for await (const r of readDataFolder(dir)) out.push(r);
  return out;
}

export async function* each<T>(items: T[]): AsyncGenerator<T> {
  yield* items;
}
