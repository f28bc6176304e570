import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { main } from '../../cli/main.js';
import { reportError } from '../../cli/report-error.js';
import {
  ApiRequestError,
  AuthRequiredError,
  CancelledError,
  FailedError,
  NotFoundError,
  UsageError,
} from '../../cli/errors.js';
import { VERSION } from '../../shared/version.js';
import { tempDir } from '../helpers/temp-dir.js';
import { captureIo } from '../helpers/cli.js';

const env = () => ({ SVC_CONFIG_DIR: tempDir('svc-config'), SVC_DATA_DIR: tempDir('svc-data'), SVC_KEYCHAIN: 'off' });

test('error classes map to exit codes: usage 2, auth 4, not found / failed 1, cancelled 130', () => {
  const cases: Array<[Error, number]> = [
    [new UsageError('bad flag'), 2],
    [new AuthRequiredError('not logged in'), 4],
    [new NotFoundError('no such key'), 1],
    [new FailedError('it broke'), 1],
    [new CancelledError(), 130],
    [new ApiRequestError(401, 'unauthorized', 'bad token', {}), 4],
    [new ApiRequestError(400, 'invalid_input', 'bad input', {}), 2],
    [new ApiRequestError(404, 'not_found', 'gone', {}), 1],
    [new ApiRequestError(409, 'conflict', 'taken', {}), 1],
    [new Error('anything unexpected'), 1],
  ];
  for (const [error, code] of cases) {
    const c = captureIo();
    assert.is(reportError(error, c.io), code, `${error.name}: ${error.message}`);
    assert.ok(c.err().startsWith(`svc: ${error.message}\n`), c.err());
    assert.not.ok(c.err().includes('    at '), 'no stack trace');
  }
});

test('an error with a hint prints it on a second line', () => {
  const c = captureIo();
  reportError(new AuthRequiredError('not logged in'), c.io);
  assert.is(c.err(), "svc: not logged in\nhint: run 'svc login' first\n");
});

test('svc --version prints the version and exits 0', async () => {
  const c = captureIo();
  assert.is(await main(['--version'], { io: c.io, env: env() }), 0);
  assert.is(c.out().trim(), VERSION);
});

test('a bare svc shows the help on stdout and exits 0', async () => {
  const bare = captureIo();
  assert.is(await main([], { io: bare.io, env: env() }), 0);
  assert.match(bare.out(), 'Usage: svc');
  assert.match(bare.out(), 'keys ');
  assert.is(bare.err(), '');
});

test("commander's usage errors read like svc's: one 'svc:' line, and a hint naming the command meant, by spelling or by meaning", async () => {
  const cases: [string[], string, string | null][] = [
    [['keys', 'delete', 'key_1'], "svc: unknown command 'delete'", "hint: did you mean 'svc keys revoke'?"],
    [['keys', 'revok', 'key_1'], "svc: unknown command 'revok'", "hint: did you mean 'svc keys revoke'?"],
    [['evnts', 'list'], "svc: unknown command 'evnts'", "hint: did you mean 'svc events'?"],
    [['companies', 'switch', 'x'], "svc: unknown command 'switch'", "hint: did you mean 'svc companies use'?"],
    [['keys', 'create'], "svc: required option '--name <label>' not specified", null],
  ];
  for (const [argv, line, hint] of cases) {
    const c = captureIo();
    assert.is(await main(argv, { io: c.io, env: env() }), 2, argv.join(' '));
    assert.ok(c.err().startsWith(`${line}\n`), c.err());
    assert.not.match(c.err(), /^error: /m);
    if (hint) assert.match(c.err(), hint);
    else assert.not.match(c.err(), 'hint: did you mean');
  }
});

test('svc --help exits 0; an unknown command or option exits 2 with the reason on stderr', async () => {
  const help = captureIo();
  assert.is(await main(['--help'], { io: help.io, env: env() }), 0);
  assert.ok(help.out().includes('daemon'));
  const unknown = captureIo();
  assert.is(await main(['frobnicate'], { io: unknown.io, env: env() }), 2);
  assert.match(unknown.err(), /unknown command 'frobnicate'/);
  const badOption = captureIo();
  assert.is(await main(['daemon', 'status', '--bogus'], { io: badOption.io, env: env() }), 2);
  assert.match(badOption.err(), /unknown option '--bogus'/);
});

test('a missing argument and a bad value are usage errors (exit 2)', async () => {
  const missing = captureIo();
  assert.is(await main(['admin', 'tier', 'ada@example.com'], { io: missing.io, env: env() }), 2);
  assert.match(missing.err(), /missing required argument 'tier'/);
  const tier = captureIo();
  assert.is(await main(['admin', 'tier', 'ada@example.com', 'gold'], { io: tier.io, env: env() }), 2);
  assert.match(tier.err(), /svc: unknown tier 'gold'/);
  const port = captureIo();
  assert.is(await main(['daemon', 'start', '--port', 'http'], { io: port.io, env: env() }), 2);
  assert.match(port.err(), /invalid port 'http'/);
});

test('svc daemon status with no daemon exits 1; svc admin invite with no token exits 4', async () => {
  const status = captureIo();
  assert.is(await main(['daemon', 'status'], { io: status.io, env: env() }), 1);
  assert.match(status.err(), /no svc daemon is running on /);
  const invite = captureIo();
  assert.is(await main(['admin', 'invite', '--url', 'http://127.0.0.1:9'], { io: invite.io, env: env() }), 4);
  assert.match(invite.err(), /svc: no operator token in /);
});

test('not logged in on a profile named for one command: the hint names it for the login too', async () => {
  const e = env();
  const add = captureIo();
  assert.is(await main(['profile', 'add', 'work', '--url', 'http://127.0.0.1:9'], { io: add.io, env: e }), 0);
  const flag = captureIo();
  assert.is(await main(['--profile', 'work', 'whoami'], { io: flag.io, env: e }), 4);
  assert.match(flag.err(), "hint: run 'svc --profile work login' first");
  const variable = captureIo();
  assert.is(await main(['whoami'], { io: variable.io, env: { ...e, SVC_PROFILE: 'work' } }), 4);
  assert.match(variable.err(), "hint: run 'SVC_PROFILE=work svc login' first");
});

test.run();
