import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestApp } from '../../helpers/test-app.js';

// Invalid UTF-8 must not be silently replaced by U+FFFD: what was stored would not be what was sent
// (and a signature over the raw bytes would not match the parsed text).
test('a JSON body with invalid UTF-8 is a 400 invalid_json naming the problem, and nothing is created', async () => {
  const t = await createTestApp();
  const bad = Buffer.concat([Buffer.from('{"name":"a'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
  for (const url of ['/api/companies', '/api/auth/signup', '/api/auth/login']) {
    const res = await t.request({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: bad });
    assert.is(res.status, 400, `${url}: ${res.text}`);
    assert.is(res.body.code, 'invalid_json');
    assert.match(res.body.error, /UTF-8/);
  }
  // An overlong encoding and a lone surrogate encoded in UTF-8 are invalid too.
  for (const bytes of [
    [0xc0, 0xaf],
    [0xed, 0xa0, 0x80],
  ]) {
    const payload = Buffer.concat([Buffer.from('{"x":"'), Buffer.from(bytes), Buffer.from('"}')]);
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload,
    });
    assert.is(res.status, 400);
  }
  // Valid multi-byte UTF-8 still parses (it reaches validation, not the JSON error).
  const ok = await t.request({
    method: 'POST',
    url: '/api/auth/login',
    headers: { 'content-type': 'application/json' },
    payload: Buffer.from('{"email":"zoë@example.com","password":"x"}'),
  });
  assert.is.not(ok.body.code, 'invalid_json');
});

test.run();
