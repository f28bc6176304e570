import { readdirSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CommanderError, type Command as Commander } from 'commander';
import { buildProgram } from '../../cli/program.js';
import { VERSION } from '../../shared/version.js';
import { captureIo } from '../helpers/cli.js';
import { REPO_ROOT, shellCommands, svcCommandsIn, type DocCommand } from '../helpers/doc-commands.js';

/** The documents whose command examples a reader copies: each `svc …` line must parse. */
const DOCUMENTS = [
  'README.md',
  ...readdirSync(new URL('docs/', REPO_ROOT))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** What commander says is fine: a line that shows help or the version parsed too. */
const PARSED = new Set(['commander.help', 'commander.helpDisplayed', 'commander.version']);

/**
 * The real command tree (every command loaded, as `svc --help` builds it), with each command's
 * action replaced by a no-op: parsing runs commander's checks (unknown commands and options,
 * missing or excess arguments, option choices) and nothing else.
 */
async function parseOnly(argv: string[]): Promise<string | null> {
  const { io, err } = captureIo();
  const program = await buildProgram(
    () => {
      throw new Error('a parse-only program runs no command');
    },
    io,
    VERSION,
  );
  const quiet = (cmd: Commander) => {
    if ((cmd as unknown as { _actionHandler: unknown })._actionHandler) cmd.action(() => undefined);
    cmd.commands.forEach(quiet);
  };
  quiet(program);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return null;
  } catch (e) {
    if (e instanceof CommanderError && PARSED.has(e.code)) return null;
    return `${e instanceof CommanderError ? e.code : String(e)}: ${err().trim()}`;
  }
}

test('the shell splitter reads quotes, comments, && and $(…) as sh does', () => {
  assert.equal(shellCommands(`svc events trigger a:b --content '{"x":"y z"}'   # shows`), [
    ['svc', 'events', 'trigger', 'a:b', '--content', '{"x":"y z"}'],
  ]);
  assert.equal(shellCommands('svc events disable cev_1 && svc events delete cev_1'), [
    ['svc', 'events', 'disable', 'cev_1'],
    ['svc', 'events', 'delete', 'cev_1'],
  ]);
  assert.equal(shellCommands('eval "$(svc completion bash)"'), [['svc', 'completion', 'bash']]);
  assert.equal(shellCommands('echo "$S" | svc webhook send ci --body "a \\"b\\""'), [
    ['echo', '$S'],
    ['svc', 'webhook', 'send', 'ci', '--body', 'a "b"'],
  ]);
  assert.equal(shellCommands('svc completion fish > ~/f.fish 2>/dev/null'), [['svc', 'completion', 'fish']]);
});

test('the check catches drift: an unknown verb, an unknown option, a missing argument', async () => {
  assert.match(String(await parseOnly(['keys', 'delete', 'k1'])), 'unknownCommand');
  assert.match(String(await parseOnly(['keys', 'create', '--name', 'x', '--scopes', 'y'])), 'unknownOption');
  assert.match(String(await parseOnly(['keys', 'use'])), 'missingArgument');
  assert.is(await parseOnly(['keys', 'create', '--name', 'x']), null);
});

test("every svc command in the README's and the CLI docs' code blocks parses against the command tree", async () => {
  const commands: DocCommand[] = DOCUMENTS.flatMap(svcCommandsIn);
  // The README alone has dozens: fewer means the extraction broke, not that the docs are clean.
  assert.ok(commands.filter((c) => c.file === 'README.md').length >= 50, `${commands.length} commands found`);
  const failures: string[] = [];
  for (const c of commands) {
    const why = await parseOnly(c.argv);
    if (why) failures.push(`${c.file}:${c.line}: ${c.text}\n    ${why}`);
  }
  assert.equal(failures, [], `\n${failures.join('\n')}`);
});

test.run();
