import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ApiClient, RequestOptions } from '../../../cli/api-client.js';
import { runAuditList } from '../../../cli/commands/audit/list.js';
import { runAuditTail } from '../../../cli/commands/audit/tail.js';
import { ApiRequestError } from '../../../cli/errors.js';
import { openFileAuditStore } from '../../../daemon/store/audit/file-audit.js';
import { createUser } from '../../helpers/accounts.js';
import { createFakeCli, runMain } from '../../helpers/cli.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { entry } from '../../helpers/audit.js';

/** An ApiClient that sends each call to the in-process app with this bearer. */
function appApi(t: TestApp, auth: Record<string, string>): ApiClient {
  const call = async <T>(method: string, path: string, o: RequestOptions = {}): Promise<T> => {
    const query = Object.entries(o.query ?? {}).filter(([, v]) => v !== undefined);
    const qs = new URLSearchParams(query.map(([k, v]) => [k, String(v)])).toString();
    const res = await t.request({
      method: method as 'GET',
      url: qs ? `${path}?${qs}` : path,
      headers: { ...auth, ...o.headers },
    });
    if (res.status >= 400)
      throw new ApiRequestError(res.status, res.body?.code ?? 'error', res.body?.error ?? res.text, res.body);
    return res.body as T;
  };
  return {
    baseUrl: 'http://test',
    get: (p, o) => call('GET', p, o),
    post: (p, b, o) => call('POST', p, { ...o, body: b }),
    put: (p, b, o) => call('PUT', p, { ...o, body: b }),
    patch: (p, b, o) => call('PATCH', p, { ...o, body: b }),
    delete: (p, o) => call('DELETE', p, o),
    raw: async () => ({ status: 0, body: undefined, headers: {} }) as any,
  };
}

test('svc audit list: newest first, filters sent, --json a bare list, the next cursor on stderr', async () => {
  const t = await createTestApp();
  try {
    const user = await createUser(t);
    for (let i = 0; i < 3; i++)
      await t.deps.stores.audit.append(
        entry({
          user_id: user.user.id,
          target: `t${i}`,
          outcome: i === 1 ? 'refused' : 'succeeded',
          reason: i === 1 ? 'wrong_password' : null,
        }),
      );
    await t.deps.stores.audit.append(entry({ user_id: 'usr_other' }));
    const cli = createFakeCli({ api: appApi(t, user.auth), json: true });
    await runAuditList({ limit: 2 }, cli.ctx);
    const listed = JSON.parse(cli.stdout());
    assert.equal(
      listed.map((e: any) => e.target),
      ['t2', 't1'],
    );
    assert.match(cli.stderr(), /more: svc audit list --cursor aud_\d{16}/);
    const plain = createFakeCli({ api: appApi(t, user.auth) });
    await runAuditList({ outcome: 'refused' }, plain.ctx);
    assert.match(plain.stdout(), /refused\s+account\.login\s+usr_\S+\s+t1\s+\(wrong_password\)/);
    assert.is(plain.stdout().trim().split('\n').length, 1);
    const bad = await runAuditList({ since: 'last tuesday' }, plain.ctx).catch((e) => e);
    assert.instance(bad, ApiRequestError);
    assert.is(bad.status, 400);
  } finally {
    await t.close();
  }
});

test('svc audit tail prints what is recorded after it started, oldest first, and stops on abort', async () => {
  const t = await createTestApp();
  try {
    const user = await createUser(t);
    await t.deps.stores.audit.append(entry({ user_id: user.user.id, target: 'before' }));
    const cli = createFakeCli({ api: appApi(t, user.auth), json: true });
    const controller = new AbortController();
    let polls = 0;
    await runAuditTail(
      {
        signal: controller.signal,
        sleep: async () => {
          polls++;
          if (polls === 1) {
            await t.deps.stores.audit.append(entry({ user_id: user.user.id, target: 'one' }));
            await t.deps.stores.audit.append(entry({ user_id: user.user.id, target: 'two' }));
          }
          if (polls === 2) controller.abort();
        },
      },
      cli.ctx,
    );
    const printed = cli
      .stdout()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).target);
    assert.equal(printed, ['one', 'two']);
  } finally {
    await t.close();
  }
});

test('svc admin audit verify: exit 0 on a folder whose chain holds; a hand-edited entry is named, exit 1', async () => {
  const dir = tempDir('svc-data');
  const audit = await openFileAuditStore(dir);
  for (let i = 0; i < 3; i++) await audit.append(entry({ target: `t${i}` }));
  await audit.close();
  const good = await runMain(['admin', 'audit', 'verify', '--data', dir]);
  assert.is(good.code, 0, good.err);
  assert.match(good.out, /the audit trail holds: 3 entries in 1 streams/);

  const file = join(dir, 'audit', '000001.jsonl');
  writeFileSync(file, readFileSync(file, 'utf8').replace('"target":"t1"', '"target":"tX"'));
  const bad = await runMain(['admin', 'audit', 'verify', '--data', dir]);
  assert.is(bad.code, 1);
  assert.match(bad.err, /entry aud_0000000000000002 \(stream account, seq 2\).*edited/);
  const json = await runMain(['admin', 'audit', 'verify', '--data', dir, '--json']);
  assert.is(json.code, 1);
  assert.is(JSON.parse(json.out).broken.entry_id, 'aud_0000000000000002');
});

test('svc admin audit verify on a running daemon asks its operator route', async () => {
  const { startDaemon } = await import('../../../daemon/main.js');
  const dir = tempDir('svc-data');
  const daemon = await startDaemon({ port: 0, data: dir, logOutput: { write: () => {} } } as any);
  try {
    const res = await runMain(['admin', 'audit', 'verify', '--data', dir]);
    assert.is(res.code, 0, res.err);
    assert.match(res.out, /holds: .*\(the daemon\)/);
  } finally {
    await daemon.stop();
  }
});

test.run();
