import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { pickFields } from '../../cli/json-fields.js';

test('--json fields on a wrapped list (svc api GET /api/keys) pick from its rows instead of printing {}', () => {
  const wrapped = {
    keys: [
      { id: 'key_1', name: 'a', prefix: 'sk_x' },
      { id: 'key_2', name: 'b' },
    ],
    account_key: null,
  };
  assert.equal(pickFields(wrapped, ['id', 'name']), [
    { id: 'key_1', name: 'a' },
    { id: 'key_2', name: 'b' },
  ]);
  // The object's own fields win when it has them; two lists are ambiguous and stay as asked.
  assert.equal(pickFields({ id: 'x', keys: [{ id: 'y' }] }, ['id']), { id: 'x' });
  assert.equal(pickFields({ a: [1], b: [2] }, ['id']), {});
});

test.run();
