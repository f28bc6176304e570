import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { randomBytes } from 'node:crypto';
import { checksumOf, encodeBase62, formatKey, keyProblem, KEY_LENGTH, maskKey } from '../../shared/keys.js';

test('a key is prefix + 43 base62 characters + a 6-character checksum, 52 in all', () => {
  for (const kind of ['secret', 'account'] as const) {
    const key = formatKey(kind, randomBytes(32));
    assert.is(key.length, KEY_LENGTH);
    assert.is(KEY_LENGTH, 52);
    assert.match(key, kind === 'secret' ? /^sk_[0-9A-Za-z]{49}$/ : /^ak_[0-9A-Za-z]{49}$/);
    assert.is(keyProblem(kind, key), null);
  }
});

test('the body encodes the bytes exactly: all zeroes and all ones', () => {
  assert.is(formatKey('secret', Buffer.alloc(32)).slice(3, 46), '0'.repeat(43));
  const max = formatKey('secret', Buffer.alloc(32, 0xff)).slice(3, 46);
  assert.is(max, encodeBase62(2n ** 256n - 1n, 43));
  assert.is(max.length, 43);
  assert.is(encodeBase62(61n, 2), '0z');
  assert.is(encodeBase62(62n, 2), '10');
});

test('the checksum is the CRC-32 of prefix + body in base62 (known value)', () => {
  // CRC-32("123456789") = 0xCBF43926, the standard check value.
  assert.is(checksumOf('123456789'), encodeBase62(0xcbf43926n, 6));
});

test('malformed keys are named: wrong prefix, wrong length, bad characters, bad checksum', () => {
  const key = formatKey('secret', randomBytes(32));
  assert.is(keyProblem('account', key), 'wrong_prefix');
  assert.is(keyProblem('secret', 'pk_' + key.slice(3)), 'wrong_prefix');
  assert.is(keyProblem('secret', key.slice(0, -1)), 'wrong_length');
  assert.is(keyProblem('secret', key + 'a'), 'wrong_length');
  assert.is(keyProblem('secret', key.slice(0, 10) + '-' + key.slice(11)), 'bad_characters');
  const flipped = key.slice(0, 10) + (key[10] === 'a' ? 'b' : 'a') + key.slice(11);
  assert.is(keyProblem('secret', flipped), 'bad_checksum');
  const badSum = key.slice(0, -1) + (key.endsWith('0') ? '1' : '0');
  assert.is(keyProblem('secret', badSum), 'bad_checksum');
  assert.is(keyProblem('secret', 'eyJhbGciOiJIUzI1NiJ9.e30.sig'), 'wrong_prefix');
});

test('masking keeps the prefix and 6 body characters only', () => {
  const key = formatKey('secret', randomBytes(32));
  assert.is(maskKey(key), key.slice(0, 9) + '…');
});

test.run();
