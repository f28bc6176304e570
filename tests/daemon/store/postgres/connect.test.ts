import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkDatabaseUrl, redactDatabaseUrl } from '../../../../daemon/store/postgres/connect.js';

test('database URLs are shown without their password, in the userinfo or as a parameter', () => {
  assert.is(redactDatabaseUrl('postgres://svc:hunter2@db:5432/svc'), 'postgres://svc:***@db:5432/svc');
  assert.is(
    redactDatabaseUrl('postgresql://svc@/svc?host=/run/postgresql&password=hunter2&x=1'),
    'postgresql://svc@/svc?host=/run/postgresql&password=***&x=1',
  );
  assert.is(redactDatabaseUrl('postgres://db/svc'), 'postgres://db/svc');
});

test('only postgres:// and postgresql:// URLs are accepted, including libpq socket forms', () => {
  checkDatabaseUrl('postgres://svc@/svc?host=/var/run/postgresql');
  checkDatabaseUrl('postgresql://svc:pw@db.example.com/svc');
  assert.throws(
    () => checkDatabaseUrl('mysql://svc:hunter2@db/svc'),
    (e: Error) => /must start with postgres:\/\//.test(e.message) && !e.message.includes('hunter2'),
  );
  assert.throws(() => checkDatabaseUrl('db.example.com'), /must start with postgres:\/\//);
});

test.run();
