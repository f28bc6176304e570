import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * A throwaway PostgreSQL cluster for the tests, from the distribution's own binaries (Debian's
 * `postgresql` package): `initdb` into a temp folder, `pg_ctl start` listening only on a unix
 * socket in that folder, so it never meets another cluster (the package's own `main` one
 * included) on a port. One cluster per test run, started by the first test that asks for a
 * database, stopped and removed when the process exits. Each caller gets a database of its own.
 */
export interface TestPostgres {
  /** A fresh, empty database; its URL. */
  createDatabase(): Promise<string>;
}

const SOCKET_PORT = 5432; // only names the socket file inside our private folder: no TCP listener

/**
 * The folder holding initdb and pg_ctl: the newest /usr/lib/postgresql/<n>/bin, else PATH.
 * SVC_TEST_PG_ROOT replaces /usr/lib/postgresql (a test of the "not installed" path uses it).
 */
export function findPostgresBin(env: NodeJS.ProcessEnv = process.env): string | null {
  const root = env.SVC_TEST_PG_ROOT ?? '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const v of versions) if (hasBinaries(join(root, v, 'bin'))) return join(root, v, 'bin');
  for (const dir of (env.PATH ?? '').split(':')) if (dir && hasBinaries(dir)) return dir;
  return null;
}

const hasBinaries = (dir: string) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'));

/** Why the PostgreSQL tests cannot run here, or null when they can. */
function missingReason(bin: string | null): string | null {
  if (!bin) return 'PostgreSQL is not installed (no initdb in /usr/lib/postgresql/*/bin or on PATH)';
  // initdb refuses to run as root: as root the cluster belongs to the `postgres` user.
  if (process.getuid?.() === 0) {
    if (spawnSync('id', ['-u', 'postgres']).status !== 0)
      return 'running as root and there is no postgres user to own a cluster';
    if (spawnSync('runuser', ['--help']).error) return 'running as root and runuser is missing';
  }
  return null;
}

let told = false;
let started: Promise<TestPostgres> | null = null;

/**
 * The run's cluster, or null when PostgreSQL is not available; then one line says so for the
 * whole run (not one per test file) and the caller skips its PostgreSQL suites.
 */
export function testPostgres(): (() => Promise<TestPostgres>) | null {
  const bin = findPostgresBin();
  const reason = missingReason(bin);
  if (reason) {
    if (!told) process.stdout.write(`PostgreSQL tests skipped: ${reason}.\n`);
    told = true;
    return null;
  }
  // A failed start is said once, loudly: the test runner does not print a failing before-hook's error.
  return () =>
    (started ??= startCluster(bin!).catch((err: Error) => {
      process.stderr.write(`PostgreSQL test cluster did not start: ${err.message}\n`);
      throw err;
    }));
}

async function startCluster(bin: string): Promise<TestPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-pg-'));
  const data = join(dir, 'data');
  const socket = join(dir, 'socket');
  mkdirSync(socket);
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
    chownSync(socket, uid, gid);
  }
  const run = (tool: string, args: string[]) => {
    const [cmd, argv] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]]
      : [join(bin, tool), args];
    const result = spawnSync(cmd, argv, { encoding: 'utf8', cwd: dir });
    if (result.status !== 0) throw new Error(`${tool} failed: ${result.stderr || result.stdout || result.error}`);
  };
  const stop = () => {
    if (existsSync(join(data, 'postmaster.pid'))) {
      try {
        run('pg_ctl', ['stop', '-D', data, '-m', 'immediate', '-w']);
      } catch {
        // The folder goes either way; a server left behind dies with its socket folder's owner.
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.on('exit', stop);
  // Throwaway data: no fsync, so the suite measures svc, not the disk (SVC_TEST_PG_DURABLE keeps it
  // on: the benchmarks compare durable writes). Trust auth on a socket only this process's user (and
  // root) can reach.
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const durable = Boolean(process.env.SVC_TEST_PG_DURABLE);
  const options = [
    `-k ${socket}`,
    `-p ${SOCKET_PORT}`,
    "-c listen_addresses=''",
    ...(durable ? [] : ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off']),
    '-c max_connections=300',
  ];
  try {
    run('pg_ctl', ['start', '-D', data, '-w', '-t', '60', '-l', join(dir, 'server.log'), '-o', options.join(' ')]);
  } catch (err) {
    const log = existsSync(join(dir, 'server.log')) ? readFileSync(join(dir, 'server.log'), 'utf8') : '';
    throw new Error(`${(err as Error).message}\n${log}`);
  }
  const url = (db: string) => `postgresql://postgres@/${db}?host=${encodeURIComponent(socket)}&port=${SOCKET_PORT}`;
  let made = 0;
  return {
    async createDatabase() {
      const name = `svc_test_${process.pid}_${++made}`;
      const admin = new pg.Client({ connectionString: url('postgres') });
      await admin.connect();
      try {
        // A name this helper made up, never input: identifiers cannot be bound as parameters.
        await admin.query(`CREATE DATABASE ${name}`);
      } finally {
        await admin.end();
      }
      return url(name);
    },
  };
}
