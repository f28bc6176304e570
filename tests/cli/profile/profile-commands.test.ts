import { spawnSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { commandsToLoad, normalizeArgv } from '../../../cli/argv.js';
import { pickFields } from '../../../cli/json-fields.js';
import { runMain } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp-dir.js';

test('argv: only the command being run is loaded; a --json before the command is not read as its fields', () => {
  assert.equal([...(commandsToLoad(['keys', 'list', '--json']) as Set<string>)], ['keys']);
  assert.equal(
    [...(commandsToLoad(['--profile', 'keys', 'whoami']) as Set<string>)],
    ['whoami'],
    'the value of --profile is not a command',
  );
  assert.equal([...(commandsToLoad(['help', 'events']) as Set<string>)], ['events']);
  assert.is(commandsToLoad(['completion', 'bash']), '*');
  assert.equal(normalizeArgv(['--json', 'keys', 'list']), ['keys', 'list', '--json']);
  assert.equal(normalizeArgv(['keys', 'list', '--json', 'id,name']), ['keys', 'list', '--json', 'id,name']);
});

test('--json fields keep only the named fields, of each row or of one object', () => {
  assert.equal(pickFields([{ id: 1, name: 'a', x: 2 }, { id: 2 }], ['id', 'name']), [{ id: 1, name: 'a' }, { id: 2 }]);
  assert.equal(pickFields({ id: 1, secret: 's' }, ['id']), { id: 1 });
});

test('profile add / use / list / remove: flags checked, one bare array under --json, fields kept', async () => {
  const env = { SVC_CONFIG_DIR: tempDir('svc-config') };
  assert.is((await runMain(['profile', 'add', 'bad name!', '--url', 'http://x'], env)).code, 2);
  assert.is((await runMain(['profile', 'add', 'w', '--url', 'ftp://x'], env)).code, 2);
  const both = await runMain(['profile', 'add', 'w', '--url', 'http://x', '--data', '/tmp'], env);
  assert.is(both.code, 2);
  assert.match(both.err, /one of --url <url> or --data <dir>/);
  assert.is((await runMain(['profile', 'add', 'work', '--url', 'https://svc.example.com/'], env)).code, 0);
  assert.is(
    (await runMain(['profile', 'add', 'work', '--url', 'https://svc.example.com'], env)).code,
    0,
    'adding the same again is fine',
  );
  assert.is((await runMain(['profile', 'add', 'work', '--url', 'https://other.example.com'], env)).code, 2);
  assert.is((await runMain(['profile', 'use', 'nope'], env)).code, 1);
  assert.is((await runMain(['profile', 'use', 'work'], env)).code, 0);
  const list = await runMain(['profile', 'list', '--json', 'name,current'], env);
  assert.equal(JSON.parse(list.out), [
    { name: 'default', current: false },
    { name: 'work', current: true },
  ]);
  const viaEnv = await runMain(['--json', 'profile', 'list'], { ...env, SVC_PROFILE: 'default' });
  assert.equal(
    JSON.parse(viaEnv.out).find((r: any) => r.current).name,
    'default',
    '--json before the command; SVC_PROFILE wins',
  );
  const unknown = await runMain(['whoami'], { ...env, SVC_PROFILE: 'ghost' });
  assert.is(unknown.code, 2);
  assert.match(unknown.err, /no profile 'ghost' \(named by SVC_PROFILE\)/);
  assert.is((await runMain(['profile', 'remove', 'default'], env)).code, 2);
  assert.is((await runMain(['profile', 'remove', 'work'], env)).code, 0);
  assert.equal(
    JSON.parse((await runMain(['profile', 'list', '--json'], env)).out).map((r: any) => r.name),
    ['default'],
  );
});

test('svc api and svc completion check their arguments', async () => {
  const env = { SVC_CONFIG_DIR: tempDir('svc-config') };
  const method = await runMain(['api', 'FETCH', '/api/me'], env);
  assert.is(method.code, 2);
  assert.match(method.err, /unknown method FETCH/);
  assert.is((await runMain(['api', 'GET', 'api/me'], env)).code, 2);
  const shell = await runMain(['completion', 'powershell'], env);
  assert.is(shell.code, 2);
  assert.match(shell.err, /use bash, zsh or fish/);
});

test('the bash completion, run by bash, completes commands, subcommands and flags from the real tree', async () => {
  const script = (await runMain(['completion', 'bash'], {})).out;
  // What `svc profile list --json name` prints, without a CLI on the PATH.
  const fakeSvc = `svc() { printf '[\\n  {\\n    "name": "default"\\n  },\\n  {\\n    "name": "work"\\n  }\\n]\\n'; }`;
  const complete = (words: string[]) => {
    const line = `${script}\n${fakeSvc}\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _svc; echo "\${COMPREPLY[@]}"`;
    return spawnSync('bash', ['-c', line], { encoding: 'utf8' }).stdout.trim().split(' ');
  };
  assert.equal(complete(['svc', 'pro']), ['profile']);
  assert.equal(complete(['svc', 'keys', 'l']), ['list']);
  assert.ok(complete(['svc', 'keys', 'create', '--']).includes('--company'));
  assert.ok(complete(['svc', '--json', 'auth', '']).includes('status'));
  // After --profile: the profile names (from svc profile list), never the commands; the value is skipped after.
  assert.equal(complete(['svc', '--profile', '']), ['default', 'work']);
  assert.equal(complete(['svc', '--profile', 'w']), ['work']);
  assert.equal(complete(['svc', '--profile', 'work', 'ke']), ['keys']);
  assert.equal(complete(['svc', 'keys', 'create', '--name', '']), ['']);
  assert.equal(complete(['svc', 'events', 'list', '--configured', '--ty']), ['--type'], 'a plain flag takes no value');
  const fish = (await runMain(['completion', 'fish'], {})).out;
  assert.match(fish, /complete -c svc -n '__fish_use_subcommand' -a 'profile'/);
  assert.match(fish, /complete -c svc -l profile -x -a '\(svc profile list --json name/);
  assert.match((await runMain(['completion', 'zsh'], {})).out, /bashcompinit/);
});

test.run();
