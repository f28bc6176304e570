import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ApiClient } from '../../../cli/api-client.js';
import { createFakeCli } from '../../helpers/cli.js';
import { runLogin } from '../../../cli/commands/auth/login.js';
import { UsageError } from '../../../cli/errors.js';

/** An API client that records calls and answers from a script. */
function scriptedApi(answers: Record<string, unknown>): ApiClient & { calls: { path: string; body: unknown }[] } {
  const calls: { path: string; body: unknown }[] = [];
  return {
    baseUrl: 'http://svc.test',
    calls,
    get: async () => ({}) as never,
    delete: async () => ({}) as never,
    put: async () => ({}) as never,
    patch: async () => ({}) as never,
    raw: async () => {
      throw new Error('svc api is not scripted here');
    },
    post: async (path: string, body?: unknown) => {
      calls.push({ path, body });
      return answers[path] as never;
    },
  };
}

test('login follows totp_required with the partial token and --totp-code, then stores the full token', async () => {
  const api = scriptedApi({
    '/api/auth/login': { ok: true, totp_required: true, partial_token: 'partial.jwt.x' },
    '/api/auth/totp/login': { ok: true, token: 'full.jwt.y' },
  });
  const cli = createFakeCli({ api, stdin: 'a long enough password\n' });
  await runLogin({ email: 'two@example.com', passwordStdin: true, otp: '123456' }, cli.ctx);
  assert.equal(
    api.calls.map((c) => c.path),
    ['/api/auth/login', '/api/auth/totp/login'],
  );
  assert.equal(api.calls[1]!.body, { partial_token: 'partial.jwt.x', code: '123456' });
  assert.equal([...cli.credentials.values()], ['full.jwt.y']);
});

test('login with TOTP and no terminal and no --totp-code is a usage error; nothing is stored', async () => {
  const api = scriptedApi({ '/api/auth/login': { ok: true, totp_required: true, partial_token: 'p' } });
  const cli = createFakeCli({ api, stdin: 'a long enough password\n' });
  try {
    await runLogin({ email: 'two@example.com', passwordStdin: true }, cli.ctx);
    assert.unreachable();
  } catch (err) {
    assert.instance(err, UsageError);
  }
  assert.is(cli.credentials.size, 0);
});

test.run();
