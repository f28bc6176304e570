import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

/** `npm run fuzz|load|crash` with a bad flag: one line naming it, exit code 2, nothing started. */
const run = (script: string, ...args: string[]) =>
  spawnSync(process.execPath, [fileURLToPath(new URL(`./${script}.js`, import.meta.url)), ...args], {
    encoding: 'utf8',
    timeout: 20_000,
  });

for (const [script, args, message] of [
  ['fuzz', ['--database', 'mysql://x'], 'fuzz: --database needs a postgres:// URL'],
  ['fuzz', ['--database'], 'fuzz: --database needs a postgres:// URL of an empty, throwaway database, got nothing'],
  ['fuzz', ['--sweep', 'some'], 'fuzz: --sweep (SVC_FUZZ_SWEEP) must be one of all, quick, off, got some'],
  ['load', ['--seconds', 'ten'], 'load: --seconds (SVC_LOAD_SECONDS) must be a number, got ten'],
  ['crash', ['--cycles=-1'], 'crash: --cycles (SVC_CRASH_CYCLES) must be a number, got -1'],
] as const) {
  test(`${script} ${args.join(' ')}: one line, exit code 2`, () => {
    const r = run(script, ...args);
    assert.is(r.status, 2, r.stderr);
    assert.ok(r.stderr.startsWith(message), r.stderr);
    assert.is(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.is(r.stdout, '');
  });
}

test.run();
