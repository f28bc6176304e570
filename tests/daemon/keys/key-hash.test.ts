import { createHash, randomBytes } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { hashKey } from '../../../daemon/access/key-material.js';
import { formatKey } from '../../../shared/keys.js';

// Stored keys are found by this hash: it must stay the hex SHA-256 of the key's UTF-8 bytes,
// whichever node:crypto call computes it, or every stored key would stop working.
test('a key is stored under the hex SHA-256 of its text', () => {
  const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
  for (let i = 0; i < 2_000; i++) {
    const key = formatKey(i % 2 ? 'secret' : 'account', randomBytes(32));
    assert.is(hashKey(key), sha256(key));
  }
  for (const odd of ['', 'é', 'sk_\u{1F511}', 'x'.repeat(10_000)]) assert.is(hashKey(odd), sha256(odd));
});

test.run();
