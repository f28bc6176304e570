import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { encodeLine, fingerprintOf } from '../../../daemon/store/engine/record-text.js';
import type { Space, TableSpec } from '../../../daemon/store/engine/types.js';
import { defineRuntimeTables } from '../../../daemon/store/runtime/tables.js';

/**
 * The per-Company twin of account-keys.test.ts: snapshot lines carry index keys, trusted while the
 * key functions' fingerprint (their source) is unchanged. A key function can change what it
 * computes without its source changing (`prefixOf` behind configured events' `prefix`): then the
 * stored keys would be wrong. Each runtime table's keys for a sample record are pinned beside its
 * fingerprint, so such a change fails here and says what to do.
 */
function runtimeSpecs(): TableSpec<object>[] {
  const specs: TableSpec<object>[] = [];
  const recorder = { define: (spec: TableSpec<object>) => void specs.push(spec) } as unknown as Space;
  defineRuntimeTables(recorder);
  return specs;
}

const SAMPLES: Record<string, object> = {
  agents: { id: 'agt_1', role: 'dev' },
  sessions: { id: 'ses_1', agent_id: 'agt_1', status: 'active', gateway_channel_id: 'ch' },
  messages: { id: 'msg_1', session_id: 'ses_1' },
  quests: { id: 'qst_1', agent_id: 'agt_1', session_id: 'ses_1', status: 'open' },
  configured_events: {
    id: 'cev_1',
    type: 'agent:premature_completion',
    agent_id: null,
    session_id: null,
    quest_id: null,
  },
  firings: { id: 'fir_1', event_id: 'evt_1' },
  retries: { id: 'rty_1', configured_event_id: 'cev_1', event_id: 'evt_1' },
  schedule_ticks: { id: 'cev_1@2026-11-24T08:00:00.000Z' },
  channels: { name: 'inbox' },
  questions: { id: 'que_1', status: 'open', agent_id: 'agt_1', session_id: null },
  webhook_deliveries: { id: 'dlv_1' },
  meta: { id: 'sweep' },
  settings: { id: 'chain_budget' },
  failures: { id: 'evt_1|cev_1|0', configured_event_id: 'cev_1' },
  debounces: { key: 'cev_1#d|*' },
};

const PINNED: Record<string, [string, unknown[]]> = {
  agents: ['TY_-quggxMywZWp2', ['dev']],
  sessions: ['w8rU4TdsTqerhwgN', ['agt_1', 'active', 'ch']],
  messages: ['O683bRS4bJnLT2Ua', ['ses_1']],
  quests: ['JuuXa5bkS-DyTbr6', ['agt_1', 'ses_1', 'open']],
  configured_events: ['XIWrNaoHkqZ2_IeH', ['agent:premature_completion', 'agent', null, null, null]],
  firings: ['PkA6bnaz3UQbZzWR', ['evt_1']],
  retries: ['qBBJu2OzoQzkHRdq', ['cev_1', 'evt_1']],
  schedule_ticks: ['hrg_NqnUCoo3T7jc', []],
  channels: ['xMOxPEWQywpw8AYR', []],
  questions: ['q939UaF8beU8Na8p', ['open', 'agt_1', null]],
  webhook_deliveries: ['uDDfnKuXuBi0fgj6', []],
  meta: ['RG46ppCXtDILxpi8', []],
  settings: ['xPd_6B2R46tbHZBB', []],
  failures: ['_N-EP9azJf10hYVQ', ['cev_1']],
  debounces: ['uoLqOBD_wgCRrA0a', []],
};

test('the runtime tables compute the keys pinned for their fingerprints', () => {
  const specs = runtimeSpecs();
  assert.ok(specs.length >= 12, `only ${specs.length} runtime tables defined`);
  const found: Record<string, [string, unknown[]]> = {};
  for (const spec of specs) {
    const record = SAMPLES[spec.name];
    assert.ok(record, `${spec.name}: add a sample record to this test`);
    found[spec.name] = [
      fingerprintOf(spec),
      (JSON.parse(encodeLine(spec, spec.id(record), record)) as { keys: unknown[] }).keys,
    ];
  }
  for (const [name, [fingerprint, keys]] of Object.entries(found)) {
    const [pinned, pinnedKeys] = PINNED[name] ?? ['', []];
    if (fingerprint !== pinned)
      assert.unreachable(
        `${name}: its key functions changed (snapshots written before are re-keyed at the next start, once): ` +
          `pin [${JSON.stringify(fingerprint)}, ${JSON.stringify(keys)}] here`,
      );
    assert.equal(
      keys,
      pinnedKeys,
      `${name}: the keys changed while the key functions' source did not: bump the spec's \`version\` (and the pin)`,
    );
  }
});

test.run();
