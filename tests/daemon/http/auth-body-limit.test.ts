import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestApp } from '../../helpers/test-app.js';

// The router matches paths case-insensitively, so the 64 KiB auth limit must too.
test('the 64 KiB auth body limit holds whatever the case of the path', async () => {
  const t = await createTestApp();
  const payload = JSON.stringify({ email: 'a@example.com', pad: 'x'.repeat(100 * 1024) });
  for (const url of ['/api/auth/login/code/request', '/API/AUTH/login/code/request', '/Api/Auth/wallet/nonce']) {
    const res = await t.request({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload });
    assert.is(res.status, 413, url);
    assert.is(res.body.code, 'payload_too_large');
  }
});

test.run();
