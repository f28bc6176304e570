import Koa from 'koa';
import { inject } from 'light-my-request';
import pg from 'pg';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { errorRenderer } from '../../../../daemon/http/error-renderer.js';
import { silentLogger } from '../../../../daemon/logger.js';
import { isTransientConflict } from '../../../../daemon/store/unavailable.js';
import { testPostgres } from '../../../helpers/postgres.js';

/**
 * A deadlock or a lock that cannot be had, as the real server reports them, answers 503
 * `database_busy` with Retry-After: the database rolled the transaction back, so the request can be
 * sent again; a statement that failed for what it asked stays a 500.
 */
const cluster = testPostgres();
if (cluster) {
  const test = suite('postgres: a transaction stopped for another one is a 503, not a 500');
  let url = '';
  const clients: pg.Client[] = [];
  const connect = async () => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    clients.push(c);
    return c;
  };
  test.before(async () => {
    url = await (await cluster()).createDatabase();
    const c = await connect();
    await c.query('CREATE TABLE conflict_rows (id int PRIMARY KEY, v int)');
    await c.query('INSERT INTO conflict_rows VALUES (1, 0), (2, 0)');
  });
  test.after(async () => {
    await Promise.all(clients.map((c) => c.end().catch(() => {})));
  });

  /** What the error renderer answers for `err` thrown by a route. */
  const answerFor = async (err: unknown) => {
    const app = new Koa();
    app.use(errorRenderer(silentLogger));
    app.use(() => {
      throw err;
    });
    const res = await inject(app.callback(), { method: 'POST', url: '/api/events/trigger' });
    return { status: res.statusCode, retryAfter: res.headers['retry-after'], body: JSON.parse(res.payload) };
  };

  test('a real deadlock (40P01)', async () => {
    const [a, b] = [await connect(), await connect()];
    await a.query('BEGIN');
    await b.query('BEGIN');
    await a.query('UPDATE conflict_rows SET v = v + 1 WHERE id = 1');
    await b.query('UPDATE conflict_rows SET v = v + 1 WHERE id = 2');
    // Each now waits for the other's row: the server's deadlock check (after deadlock_timeout,
    // 1 s by default) stops one of the two.
    const outcomes = await Promise.allSettled([
      a.query('UPDATE conflict_rows SET v = v + 1 WHERE id = 2'),
      b.query('UPDATE conflict_rows SET v = v + 1 WHERE id = 1'),
    ]);
    await a.query('ROLLBACK');
    await b.query('ROLLBACK');
    const failed = outcomes.filter((o) => o.status === 'rejected');
    assert.is(failed.length, 1, 'one of the two was stopped');
    const err = failed[0]!.reason as { code?: string };
    assert.is(err.code, '40P01');
    assert.ok(isTransientConflict(err));
    const answer = await answerFor(err);
    assert.is(answer.status, 503);
    assert.is(answer.body.code, 'database_busy');
    assert.is(answer.retryAfter, '1');
    assert.match(answer.body.error, /nothing was changed/);
  });

  test('a lock not available (55P03, FOR UPDATE NOWAIT)', async () => {
    const [a, b] = [await connect(), await connect()];
    await a.query('BEGIN');
    await a.query('SELECT v FROM conflict_rows WHERE id = 1 FOR UPDATE');
    const err = await b.query('SELECT v FROM conflict_rows WHERE id = 1 FOR UPDATE NOWAIT').then(
      () => null,
      (e: unknown) => e,
    );
    await a.query('ROLLBACK');
    assert.is((err as { code?: string }).code, '55P03');
    assert.is((await answerFor(err)).body.code, 'database_busy');
  });

  test('a statement that failed for what it asked stays a 500 (the renderer does not hide bugs)', async () => {
    const c = await connect();
    const err = await c.query('SELECT 1 / 0').then(
      () => null,
      (e: unknown) => e,
    );
    assert.is((err as { code?: string }).code, '22012');
    assert.not.ok(isTransientConflict(err));
    const answer = await answerFor(err);
    assert.is(answer.status, 500);
    assert.is(answer.body.code, 'internal_error');
  });

  test.run();
}
