import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Command, Option } from '../../cli/command-spec.js';
import { parseFast } from '../../cli/fast-parse.js';

/** A small tree like the real one: global flags on the program, a noun with verbs. */
function tree() {
  const program = new Command('svc')
    .version('1.0.0', '-v, --version')
    .option('--json [fields]', 'JSON')
    .option('--url <url>', 'URL')
    .option('--profile <name>', 'profile');
  const noop = async () => {};
  const list = new Command('list')
    .option('--limit <n>', 'at most')
    .option('-f, --follow', 'follow', false)
    .action(noop);
  const create = new Command('create')
    .argument('<name>', 'name')
    .argument('[note]')
    .requiredOption('--root <company>', 'Company')
    .option('--no-store', 'do not store')
    .option('--port <n>', 'port', (v: string) => Number(v))
    .addOption(new Option('--hidden').hideHelp())
    .action(noop);
  const clash = new Command('clash').option('--url <url>', 'its own --url').action(noop);
  program.addCommand(new Command('keys').addCommand(list).addCommand(create).addCommand(clash));
  return program;
}
const parse = (...argv: string[]) => parseFast(tree(), argv);
const flagsOf = (...argv: string[]) => {
  const p = parse(...argv);
  return p && (p.params.at(-1) as { optsWithGlobals(): object }).optsWithGlobals();
};

test('a plain line is read as commander reads it: flags with values, defaults, global flags anywhere', () => {
  assert.equal(flagsOf('keys', 'list', '--json'), { follow: false, json: true });
  assert.equal(flagsOf('keys', 'list', '--json', 'id,name', '--limit', '5'), {
    limit: '5',
    follow: false,
    json: 'id,name',
  });
  assert.equal(
    flagsOf('--url', 'http://x', 'keys', '-f', 'list'),
    null,
    'a verb flag before its verb goes to commander',
  );
  assert.equal(flagsOf('--url', 'http://x', 'keys', 'list', '-f'), { follow: true, url: 'http://x' });
  const p = parse('keys', 'create', 'n1', '--root', 'acme');
  assert.equal(p?.leaf.commandName, 'create');
  assert.equal(p?.params.slice(0, 2), ['n1', undefined], 'a missing optional argument is undefined, as in commander');
  assert.equal(p?.params[2], { root: 'acme', store: true }, '--no-store defaults to store: true');
});

test('anything unusual is left to commander (null): help, version, errors, special flags', () => {
  const lines = [
    ['keys', 'list', '--help'],
    ['keys', 'list', '-h'],
    ['keys', 'list', '-v'],
    ['keys', 'list', '--', 'x'],
    ['keys', 'list', '--limit=5'],
    ['keys', 'list', '--bogus'],
    ['keys', 'list', '--limit', '1', '--limit', '2'],
    ['keys', 'list', '--limit'],
    ['keys', 'list', '--limit', '-1'],
    ['keys', 'list', 'extra'],
    ['keys', 'list', '-fx'],
    ['keys'],
    ['keys', 'bogus'],
    ['help', 'keys'],
    ['keys', 'create', '--root', 'acme'],
    ['keys', 'create', 'n1'],
    ['keys', 'create', 'n1', '--root', 'acme', '--no-store'],
    ['keys', 'create', 'n1', '--root', 'acme', '--port', '80'],
    ['keys', 'create', 'a', 'b', 'c', '--root', 'acme'],
    ['keys', 'clash', '--url', 'http://x'],
  ];
  for (const line of lines) assert.is(parse(...line), null, line.join(' '));
});

test('a hidden option added with addOption is read like any other', () => {
  assert.equal(parse('keys', 'create', 'n', '--root', 'r', '--hidden')?.params[2], {
    root: 'r',
    store: true,
    hidden: true,
  });
});

test.run();
