import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCli, startDaemonProcess, testSettingsEnv, type ProcessResult } from '../helpers/daemon-process.js';
import { svcCommandsIn, type DocCommand } from '../helpers/doc-commands.js';
import { tempDir } from '../helpers/temp-dir.js';

const EMAIL = 'walker@example.com';
const PASSWORD = 'a walk through the readme';

/** What earlier commands printed that later ones name: the README's `<id>`, `evt_…`, `cev_…`. */
interface Walk {
  invite: string;
  keys: Record<string, string>;
  rotated?: string;
  event?: string;
  configured?: string;
  schedule?: string;
  secret?: string;
  otherSession?: string;
}

/** How a README line is typed: its words with the placeholders a reader fills in, and what it reads on stdin. */
type Step = { argv: string[]; stdin?: string; expect?: number } | 'skip';

/**
 * The README's lines that a reader cannot paste as they are, each with what the reader types
 * instead (the same command, placeholders filled, a prompt answered on stdin). Any other line
 * runs word for word; a placeholder left in one fails the walk, so a new README example that
 * needs one gets a line here.
 */
function typed(c: DocCommand, w: Walk): Step {
  const line = c.argv.join(' ');
  const fill = (value: string | undefined) => {
    assert.ok(value, `nothing earlier gave the value for ${c.file}:${c.line}: ${c.text}`);
    return c.argv.map((a) => (/^<\w+>$|…$/.test(a) ? value! : a));
  };
  if (line === 'signup --invite <CODE>')
    return { argv: [...fill(w.invite), '--email', EMAIL, '--password-stdin'], stdin: `${PASSWORD}\n` };
  if (line === 'login') return { argv: ['login', '--email', EMAIL, '--password-stdin'], stdin: `${PASSWORD}\n` };
  if (line === 'sessions revoke <id>') return { argv: fill(w.otherSession) };
  // Interactive (tested with a terminal in tests/e2e/cli-prompts-pty.test.ts); logout ends the walk.
  if (line === 'password change' || line === 'logout') return 'skip';
  if (line === 'keys rotate <id> --overlap 24h' || line === 'keys revoke <id>') return { argv: fill(w.keys.monitor) };
  if (line.startsWith('keys explain <id>')) return { argv: fill(w.rotated) };
  if (line === 'keys use <id>') return { argv: fill(w.keys.laptop) };
  // A live view that runs until Ctrl-C (tests/cli/events cover it).
  if (line === 'events tail') return 'skip';
  if (line === 'events trace evt_…') return { argv: fill(w.event) };
  if (/^events (disable|delete) cev_…$/.test(line)) return { argv: fill(w.configured) };
  if (line === 'events enable <id>') return { argv: fill(w.schedule) };
  if (c.argv[0] === 'webhook') return { argv: c.argv, stdin: `${w.secret}\n` };
  // Not logged in on that profile: the README shows the flag, not a login there.
  if (line === '--profile work whoami') return { argv: c.argv, expect: 4 };
  return { argv: c.argv };
}

/** Reads what a command printed into the walk's state. */
function remember(argv: string[], out: ProcessResult, w: Walk): void {
  const made = /Created secret key (key_\w+) '([^']+)'/.exec(out.stdout);
  if (made) w.keys[made[2]!] = made[1]!;
  w.rotated = /new secret key (key_\w+)/.exec(out.stdout)?.[1] ?? w.rotated;
  if (argv[1] === 'trigger') w.event = /evt_\w+/.exec(out.stdout)?.[0];
  if (argv[1] === 'create' && argv[0] === 'events') w.configured ??= /created (cev_\w+)/.exec(out.stdout)?.[1];
  if (argv.includes('--scheduled')) w.schedule = /cev_\w+/.exec(out.stdout)?.[0];
  if (argv[0] === 'channels' && argv[1] === 'create') w.secret = /secret: (\S+)/.exec(out.stdout)?.[1];
}

/**
 * The README as a new user follows it, from "Your account" on (its "Seed and go" is
 * tests/e2e/dev-loop.test.ts): every `svc …` line of its code blocks, in order, with the built
 * CLI against a real daemon on a temp data folder, each expected to succeed. The one step the
 * README gives in prose (the operator grants the company tier before keys) is typed where it says.
 */
test('the README walk: account, Company and keys, events, schedules, webhooks, MCP, profiles', async () => {
  const dataDir = tempDir('svc-e2e-readme');
  const daemon = await startDaemonProcess(dataDir, [], { env: testSettingsEnv() });
  const config = tempDir('svc-e2e-readme-config');
  const env = { SVC_DATA_DIR: dataDir, SVC_CONFIG_DIR: config, HOME: config, SVC_KEYCHAIN: 'off' };
  const w: Walk = { invite: daemon.invite, keys: {} };
  const walked: string[] = [];
  try {
    const all = svcCommandsIn('README.md');
    const from = all.findIndex((c) => c.argv[0] === 'signup');
    assert.ok(from > 0, 'the README has a signup line');
    for (const c of all.slice(from)) {
      if (c.argv[0] === 'keys' && c.argv[1] === 'create' && !w.keys.laptop) {
        const tier = await runCli(['admin', 'tier', EMAIL, 'company'], env);
        assert.is(tier.code, 0, tier.stderr);
      }
      if (c.argv[0] === 'sessions' && c.argv[1] === 'revoke') {
        const listed = JSON.parse((await runCli(['sessions', 'list', '--json'], env)).stdout);
        w.otherSession = listed.find((s: { current: boolean }) => !s.current)?.id;
      }
      const step = typed(c, w);
      if (step === 'skip') continue;
      const unfilled = step.argv.find((a) => /^<\w+>$|…/.test(a));
      assert.not.ok(unfilled, `${c.file}:${c.line}: ${c.text}: no value for ${unfilled}`);
      const out = await runCli(step.argv, env, step.stdin);
      assert.is(
        out.code,
        step.expect ?? 0,
        `${c.file}:${c.line}: ${c.text}\n(typed: svc ${step.argv.join(' ')})\n${out.stderr}${out.stdout}`,
      );
      remember(step.argv, out, w);
      walked.push(step.argv.slice(0, 2).join(' '));
    }
    // Enough of the README ran for the walk to mean something.
    for (const expected of ['verify --from-mail', 'keys use', 'events trace', 'webhook send', 'mcp call'])
      assert.ok(walked.includes(expected), `never walked: ${expected}`);
    // The account section's last line, once the rest is done.
    await runCli(['profile', 'use', 'default'], env);
    const out = await runCli(['logout'], env);
    assert.is(out.code, 0, out.stderr);
    assert.is((await runCli(['whoami'], env)).code, 4);
  } finally {
    await daemon.stop();
  }
});

test.run();
