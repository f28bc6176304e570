import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startServer, type Started } from '../harness.js';
import { cpuSeconds } from '../load.js';

const cli = fileURLToPath(new URL('../../cli/main.js', import.meta.url));

/**
 * A real daemon process on a seeded data folder, how long it took to print its first line, and the
 * CPU time it had used by then (from /proc: on a shared machine the wall time mostly measures the
 * others' load, the CPU time what the start itself costs).
 */
export async function startTimed(dataDir: string): Promise<{ daemon: Started; ms: number; cpuMs: number }> {
  const started = performance.now();
  const daemon = await startServer(
    cli,
    ['daemon', 'start', '--foreground', '--port', '0', '--data', dataDir, '--default-tier', 'company'],
    // The access log goes beside the data folder (as in a deployment), not onto the bench's output.
    `${dataDir}.log`,
  );
  const ms = performance.now() - started;
  return { daemon, ms, cpuMs: (cpuSeconds(daemon.child.pid) ?? Number.NaN) * 1000 };
}

/** Waits until /healthz answers (the first line comes once the port is bound; runtimes open after). */
export async function healthy(url: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(url + '/healthz')).ok) return;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${url} never answered /healthz`);
}

/** Resident memory of a process in MiB, from /proc; NaN where there is no /proc. */
export function rssMiB(pid: number | undefined): number {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return Number(kb) / 1024;
  } catch {
    return Number.NaN;
  }
}

/** SIGKILL, as a crash would: no flush, no snapshot, the lock file left behind. */
export function killHard(daemon: Started): Promise<void> {
  return new Promise((done) => {
    if (daemon.child.exitCode !== null) return done();
    daemon.child.once('exit', () => done());
    daemon.child.kill('SIGKILL');
  });
}

export async function login(url: string, email: string, password: string): Promise<string> {
  const res = await fetch(url + '/api/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const body = (await res.json()) as { token?: string };
  if (!res.ok || !body.token) throw new Error(`login answered ${res.status}`);
  return body.token;
}
