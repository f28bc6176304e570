import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCrash } from './crash.js';
import { runFuzz } from './fuzz.js';
import { databaseDigest } from './lib/digest.js';
import { testPostgres } from '../helpers/postgres.js';
import { formatLoad, runLoad } from './load.js';

/**
 * The short forms of `npm run test:crash`, `npm run fuzz` and `npm run load`, each on a
 * real daemon process, so CI runs them with every `npm test`. The full forms are documented in
 * docs/robustness.md; sizes here keep the three under about a minute on two cores.
 */
const quiet = () => undefined;

test('crash: 2 SIGKILL cycles lose no acknowledged write or audit entry and bring nothing revoked back; 2 s under strace sync every acknowledged write before its answer', async () => {
  const report = await runCrash({ cycles: 2, writers: 4, syncSeconds: 2, out: quiet });
  assert.equal(report.violations, []);
  assert.ok(report.acknowledged.events > 0, 'some appends were acknowledged');
  assert.ok(report.acknowledged.keyCalls > 0, 'some audited key calls were answered');
  if (report.syncOrder.skipped)
    process.stdout.write(`crash: the sync order check was skipped: ${report.syncOrder.skipped}\n`);
  else assert.ok(report.syncOrder.checked > 0, 'the order check saw acknowledged writes');
});

test('fuzz: a NUL and one other hostile value in every input of every route and MCP tool, then 600 generated bad requests: no 5xx, no hang, nothing written by a refusal', async () => {
  const report = await runFuzz({ requests: 600, sweep: 'quick', concurrency: 8, out: quiet });
  assert.equal(report.violations, []);
  assert.ok(report.routes > 50 && report.tools > 0, `${report.routes} routes, ${report.tools} tools`);
  assert.ok(report.swept > 500, `${report.swept} swept`);
});

// Team mode: PostgreSQL refuses what a JavaScript string allows (a NUL in text, above all), so the
// sweep's NUL in every query filter, path parameter, body field and tool argument runs here too.
const cluster = testPostgres();
if (cluster)
  test('fuzz in team mode (PostgreSQL): the same sweep, then 200 generated bad requests: no 5xx, no hang, no row written by a refusal', async () => {
    const database = await (await cluster()).createDatabase();
    const report = await runFuzz({ requests: 200, sweep: 'quick', concurrency: 8, out: quiet, database });
    assert.equal(report.violations, []);
    assert.ok(report.routes > 50 && report.tools > 0, `${report.routes} routes, ${report.tools} tools`);
    assert.ok(report.swept > 500, `${report.swept} swept`);
    // The digest the check compares reads the rows (the accepted requests wrote some).
    assert.ok((await databaseDigest(database)).records > 20);
  });

// The load's bounds (appends kept while logins run, p99s) are timings: `npm run load` judges them over
// a minute; in 10 s on a shared machine they would say more about the machine than the daemon.
test('load: 16 clients for 10 s: no error, no 429 a client did not ask for, every acknowledged event reaches every follower', async () => {
  const report = await runLoad({ clients: 16, seconds: 10, out: quiet });
  assert.equal(report.violations, [], formatLoad(report).join('\n'));
  assert.ok(report.appends > 0);
  assert.ok(
    report.routes.some((r) => r.route === 'POST /api/auth/login'),
    'the login clients ran',
  );
});

if (cluster)
  test('load in team mode: 16 clients over two daemons for 10 s: every acknowledged event reaches every follower on both', async () => {
    const database = await (await cluster()).createDatabase();
    const report = await runLoad({ clients: 16, seconds: 10, out: quiet, database });
    assert.equal(report.violations, [], formatLoad(report).join('\n'));
    assert.ok(report.appends > 0);
  });

test.run();
