import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DomainError } from '../../daemon/domain-error.js';
import { loadLazily } from '../../daemon/lazy-module.js';
import { ErrorCode } from '../../shared/errors.js';
import { loadedModules } from '../helpers/module-log.js';
import { tempDir } from '../helpers/temp-dir.js';

// The libraries a start must not pay for (docs/performance.md: ~0.7 s of CPU and ~50 MiB at every start);
// pg only in team mode (--database), which loads it when it opens the database.
const LAZY = [
  'ethers',
  'siwe',
  '@simplewebauthn/server',
  '@modelcontextprotocol/sdk',
  '@modelcontextprotocol/server',
  'nodemailer',
];
const child = fileURLToPath(new URL('../helpers/lazy-libraries-child.js', import.meta.url));

function serve(mode: 'login' | 'first-use'): { libraries: Set<string>; answers: Record<string, number> } {
  const out = join(tempDir('svc-lazy'), 'answers.json');
  const urls = loadedModules(`lazy-${mode}`, [child, out, mode]);
  const libraries = new Set(LAZY.filter((name) => urls.some((u) => u.includes(`/node_modules/${name}/`))));
  return { libraries, answers: JSON.parse(readFileSync(out, 'utf8')) };
}

test('starting the app and serving /healthz, a password login and /api/me loads none of the lazy libraries', () => {
  const { libraries, answers } = serve('login');
  assert.equal(answers, { healthz: 200, login: 200, me: 200 });
  assert.equal([...libraries], []);
});

test('the first wallet, passkey and MCP requests load them and answer as usual', () => {
  const { libraries, answers } = serve('first-use');
  assert.equal(answers, { healthz: 200, login: 200, me: 200, wallet: 200, passkey: 200, mcp: 200 });
  for (const name of ['ethers', 'siwe', '@simplewebauthn/server', '@modelcontextprotocol/sdk'])
    assert.ok(libraries.has(name), `${name} was not loaded by its first request`);
});

test('a library that fails to load is a 503 feature_unavailable, tried again on the next call, then kept', async () => {
  let calls = 0;
  const load = loadLazily('The test library', async () => {
    calls++;
    if (calls === 1) throw new Error('Cannot find package');
    return { ok: true };
  });
  const err = await load().catch((e: unknown) => e);
  assert.instance(err, DomainError);
  assert.equal((err as DomainError).refusal, 'unavailable');
  assert.equal((err as DomainError).code, ErrorCode.featureUnavailable);
  assert.match((err as DomainError).message, /The test library could not be loaded .*Cannot find package/);
  assert.equal(await load(), { ok: true });
  assert.equal(await load(), { ok: true });
  assert.equal(calls, 2);
});

test.run();
