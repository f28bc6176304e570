import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { METHODS } from 'node:http';
import { createUser } from '../../helpers/accounts.js';
import { createCompany } from '../../helpers/keys.js';
import { createTestApp } from '../../helpers/test-app.js';

// The runtime router's method check throws a 501 for methods no route uses when asked to, which the
// renderer would turn into a 500 on every Company route.
test('every HTTP method on a Company runtime route answers a 4xx with { error, code }, never a 5xx', async () => {
  const t = await createTestApp();
  const u = await createUser(t, { tier: 'company' });
  const co = await createCompany(t, u);
  const headers = { ...u.auth, 'x-company': co.id };
  for (const path of ['/api/agents', '/api/sessions/ses_x', '/api/events', '/api/quests']) {
    for (const method of METHODS.filter((m) => m !== 'CONNECT')) {
      const res = await t.request({ method: method as any, url: path, headers });
      assert.ok(res.status < 500, `${method} ${path} → ${res.status} ${res.text}`);
      if (res.status >= 400 && method !== 'HEAD') {
        assert.type(res.body?.code, 'string', `${method} ${path}: ${res.text}`);
        assert.type(res.body?.error, 'string');
      }
    }
  }
  const trace = await t.request({ method: 'TRACE', url: '/api/agents', headers });
  assert.is(trace.status, 405);
  assert.is(trace.body.code, 'method_not_allowed');
  assert.match(String(trace.headers.allow), /GET/);
});

test.run();
