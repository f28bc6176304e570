import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import pg from 'pg';
import type { BenchEnv } from './harness.js';
import { benchDatabase, startBenchDaemon } from './team.js';
import { createWalletSecretKey } from './wallet-key.js';
import { loginBenchUser } from './cases/30-me.js';

/**
 * `node dist/bench/count-round-trips.js`: the statements (each one round trip to the database) that
 * one authenticated GET /api/me, POST /api/mcp/validate and event append make on PostgreSQL, read
 * from the server's own statement log (log_statement = all on the bench database); RAW=1 also prints
 * the log lines of the last request of each kind.
 */
const database = await benchDatabase();
const socket = new URL(database.replace(/^postgres(ql)?:\/\/[^/]*/, 'http://x')).searchParams.get('host')!;
const logFile = join(dirname(socket), 'server.log');
const admin = new pg.Client({ connectionString: database });
await admin.connect();
const dbName = new URL(database.replace(/^postgres(ql)?:\/\/[^/]*/, 'http://x')).pathname.slice(1);
const env = { duration: 1, connections: 1 } as BenchEnv;
const daemon = await startBenchDaemon(env, database);
try {
  const token = await loginBenchUser(daemon.env, 'count@example.com', 'a benchmark password');
  const sk = await createWalletSecretKey(daemon.env, 'Count Co');
  await admin.query(`ALTER DATABASE ${dbName} SET log_statement = 'all'`);
  // Settings reach new connections only: the daemon's pool is recycled by a restart.
  await daemon.stop();
  const again = await startBenchDaemon(env, database);
  const requests: Array<[string, string, RequestInit]> = [
    ['GET /api/me', '/api/me', { headers: { authorization: `Bearer ${token}` } }],
    ['POST /api/mcp/validate', '/api/mcp/validate', { method: 'POST', headers: { authorization: `Bearer ${sk}` } }],
    [
      'POST /api/events/trigger',
      '/api/events/trigger',
      {
        method: 'POST',
        headers: { authorization: `Bearer ${sk}`, 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'bench:append', content: { text: 'one' } }),
      },
    ],
  ];
  try {
    for (const [name, path, init] of requests) {
      for (let i = 0; i < 4; i++) {
        await new Promise((r) => setTimeout(r, 300));
        const start = readFileSync(logFile, 'utf8').length;
        const res = await fetch(again.url + path, init);
        await res.text();
        await new Promise((r) => setTimeout(r, 300));
        const lines = readFileSync(logFile, 'utf8')
          .slice(start)
          .split('\n')
          .filter((l) => / (statement|execute [^:]*): /.test(l))
          .map((l) => l.replace(/^.*?(statement|execute [^:]*): /, '').slice(0, 140));
        process.stdout.write(`${name} #${i + 1} (${res.status}): ${lines.length} statements\n`);
        if (i === 0 || i === 3) for (const l of lines) process.stdout.write(`    ${l}\n`);
        if (process.env.RAW && i === 3) process.stdout.write(readFileSync(logFile, 'utf8').slice(start));
      }
    }
  } finally {
    await again.stop();
  }
} finally {
  await admin.end();
}
process.exit(0);
