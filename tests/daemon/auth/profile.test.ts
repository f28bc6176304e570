import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestApp } from '../../helpers/test-app.js';
import { createUser } from '../../helpers/accounts.js';
import { AVATAR_MAX_BYTES, parseAvatarDataUrl } from '../../../daemon/auth/avatar.js';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32, 1)]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(16)]);
const GIF = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(16)]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 '), Buffer.alloc(8)]);
const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;

test('GET /api/me shows the profile and the current session, never the password hash', async () => {
  const t = await createTestApp();
  const { auth, user } = await createUser(t, { email: 'me@example.com', tier: 'company' });
  const res = await t.get('/api/me', auth);
  assert.is(res.status, 200);
  assert.is(res.body.id, user.id);
  assert.is(res.body.email, 'me@example.com');
  assert.is(res.body.tier, 'company');
  assert.is(res.body.email_verified, true);
  assert.is(res.body.has_password, true);
  assert.is(res.body.avatar_url, null);
  assert.equal(res.body.session.method, ['pwd']);
  assert.not.match(res.text, 'scrypt');
});

test('update-profile sets and clears display_name, timezone and locale; refuses unknown or bad fields', async () => {
  const t = await createTestApp();
  const { auth } = await createUser(t);
  const res = await t.post(
    '/api/auth/update-profile',
    { display_name: '  Ada Lovelace ', timezone: 'Europe/London', locale: 'en-gb' },
    auth,
  );
  assert.is(res.status, 200);
  assert.equal(
    [res.body.user.display_name, res.body.user.timezone, res.body.user.locale],
    ['Ada Lovelace', 'Europe/London', 'en-GB'],
  );
  const cleared = await t.post('/api/auth/update-profile', { timezone: null }, auth);
  assert.equal([cleared.body.user.display_name, cleared.body.user.timezone], ['Ada Lovelace', null]);
  for (const bad of [
    { timezone: 'Mars/Olympus' },
    { locale: 'not a locale!' },
    { display_name: '' },
    { display_name: 'x'.repeat(81) },
    { displayname: 'typo' },
    {},
    { display_name: 'a\u0007b' },
  ]) {
    const r = await t.post('/api/auth/update-profile', bad, auth);
    assert.is(r.status, 400, JSON.stringify(bad));
    assert.is(r.body.code, 'validation_failed');
  }
  assert.is((await t.get('/api/me', auth)).body.display_name, 'Ada Lovelace');
});

test('welcome/profile-name sets the display name and marks the welcome done', async () => {
  const t = await createTestApp();
  const { auth } = await createUser(t);
  assert.is((await t.get('/api/me', auth)).body.welcome_completed, false);
  const res = await t.post('/api/auth/welcome/profile-name', { name: 'Grace' }, auth);
  assert.is(res.status, 200);
  assert.is(res.body.user.display_name, 'Grace');
  assert.is(res.body.user.welcome_completed, true);
  assert.is((await t.post('/api/auth/welcome/profile-name', {}, auth)).status, 400);
});

test('update-avatar accepts PNG, JPEG, WebP and GIF by their magic bytes; GET /api/me/avatar serves it', async () => {
  const t = await createTestApp();
  const { auth } = await createUser(t);
  for (const [type, bytes] of [
    ['image/png', PNG],
    ['image/jpeg', JPEG],
    ['image/webp', WEBP],
    ['image/gif', GIF],
  ] as const) {
    const res = await t.post('/api/auth/update-avatar', { avatar: dataUrl(type, bytes) }, auth);
    assert.is(res.status, 200, type);
    assert.match(res.body.user.avatar_url, /^\/api\/me\/avatar\?v=\d+$/);
    const img = await t.get('/api/me/avatar', auth);
    assert.is(img.status, 200);
    assert.is(img.headers['content-type'], type);
    assert.is(img.headers['x-content-type-options'], 'nosniff');
    assert.ok(Buffer.from(img.text, 'latin1').length > 0);
    t.clock.advance(1000);
  }
  assert.is((await t.post('/api/auth/update-avatar', { avatar: null }, auth)).body.user.avatar_url, null);
  const gone = await t.get('/api/me/avatar', auth);
  assert.is(gone.status, 404);
  assert.is(gone.body.code, 'avatar_not_set');
});

test('update-avatar refuses a lying type, other types, bad base64 and images over the cap', async () => {
  const t = await createTestApp();
  const { auth } = await createUser(t);
  const cases: [string, string][] = [
    [dataUrl('image/png', JPEG), 'avatar_invalid'],
    [dataUrl('image/svg+xml', Buffer.from('<svg/>')), 'avatar_invalid'],
    ['data:image/png;base64,@@@@', 'avatar_invalid'],
    ['https://example.com/a.png', 'avatar_invalid'],
    [dataUrl('image/png', Buffer.alloc(0)), 'avatar_invalid'],
  ];
  for (const [avatar, code] of cases) {
    const res = await t.post('/api/auth/update-avatar', { avatar }, auth);
    assert.is(res.status, 400, avatar.slice(0, 40));
    assert.is(res.body.code, code);
  }
  const big = Buffer.concat([PNG, Buffer.alloc(AVATAR_MAX_BYTES)]);
  assert.is(parseAvatarDataUrl(dataUrl('image/png', big)).ok, false);
  const over = await t.post('/api/auth/update-avatar', { avatar: dataUrl('image/png', big) }, auth);
  assert.is(over.body.code, 'avatar_too_large');
  const atCap = Buffer.concat([PNG, Buffer.alloc(AVATAR_MAX_BYTES - PNG.length)]);
  assert.is(
    (await t.post('/api/auth/update-avatar', { avatar: dataUrl('image/png', atCap) }, auth)).status,
    200,
    'the cap fits in the auth body limit',
  );
});

test.run();
