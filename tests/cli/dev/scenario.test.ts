import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runScenario } from '../../../cli/commands/dev/scenario.js';
import { runSeed } from '../../../cli/commands/dev/seed.js';
import { FailedError, UsageError } from '../../../cli/errors.js';
import { devLoopSetUp, jsonFile } from '../../helpers/dev-loop.js';

// The repository's own examples (tests run from dist/tests/cli/dev/).
const example = (name: string) => fileURLToPath(new URL(`../../../../examples/${name}`, import.meta.url));

test('the example scenario passes: a trigger fires its rule, a paused one says paused, 25 hours fire the daily digest', async () => {
  const d = await devLoopSetUp({ devClock: true });
  try {
    await runScenario({ file: example('scenario.json') }, d.cli.ctx);
    const out = d.cli.stdout();
    assert.match(out, /^ok {4}1\. trigger loop:detected$/m);
    assert.match(out, /^ok {4}4\. expect$/m);
    assert.match(out, /2 of 2 expectations met/);
  } finally {
    await d.close();
  }
});

test('a broken scenario fails (exit 1) with a readable diff of every miss', async () => {
  const d = await devLoopSetUp({ devClock: true });
  try {
    const scenario = JSON.parse(readFileSync(example('scenario.json'), 'utf8'));
    scenario.steps[1] = {
      expect: { fired: ['escalate'], not_fired: { triage: 'paused' }, quests: ['Triage something else'] },
    };
    const err = await runScenario({ file: jsonFile(scenario, 'broken.json') }, d.cli.ctx).catch((e) => e);
    assert.instance(err, FailedError);
    assert.is(err.exitCode, 1);
    const out = d.cli.stdout();
    assert.match(out, /^FAIL {2}2\. expect$/m);
    assert.match(out, /fired: - escalate {2}expected to fire; it did not \(passed over: paused\)/);
    assert.match(out, /not_fired: - triage {2}expected not to fire \(paused\); it fired/);
    assert.match(out, /quests: - "Triage something else" {2}expected; the quests are "Triage retry storm"/);
    assert.match(out, /^ok {4}4\. expect$/m, 'the later steps still run');
    assert.match(out, /1 of 2 expectations met/);
  } finally {
    await d.close();
  }
});

test('bad steps are one-line usage errors', async () => {
  const d = await devLoopSetUp({ devClock: true });
  try {
    const seed = JSON.parse(readFileSync(example('scenario.json'), 'utf8')).seed;
    for (const [steps, pattern] of [
      [[{ wait: 1 }], /unknown step 'wait'/],
      [[{ advance: 'soon' }], /steps\[0\]\.advance must be a length of time/],
      [[{ expect: { fired: ['nope'] } }], /'nope' is not among the seeded events/],
      [[{ expect: { fires: [] } }], /unknown expectation 'fires'/],
    ] as const) {
      const err = await runScenario({ file: jsonFile({ seed, steps }) }, d.again().ctx).catch((e) => e);
      assert.instance(err, UsageError, JSON.stringify(steps));
      assert.match(err.message, pattern);
    }
  } finally {
    await d.close();
  }
});

test('the example seed file seeds', async () => {
  const d = await devLoopSetUp();
  try {
    await runSeed({ file: example('seed.json') }, d.cli.ctx);
    assert.match(d.cli.stdout(), /SVC_SECRET_KEY=sk_/);
    assert.match(d.cli.stdout(), /created {2}events\.daily_digest/);
    assert.match(d.cli.stdout(), /created {2}members\.cleo/);
    const cleo = await d.t.deps.stores.users.findByEmail('cleo@example.com');
    assert.equal(
      (await d.t.deps.stores.members.companiesOf(cleo!.id)).map((c) => [c.company.name, c.role]),
      [['acme', 'viewer']],
    );
  } finally {
    await d.close();
  }
});

test.run();
