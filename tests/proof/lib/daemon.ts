import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { CLI_MAIN } from '../../helpers/daemon-process.js';

/**
 * A real daemon process for the proof commands: `svc daemon start --foreground --port 0` on a data
 * folder, with its stderr (the log) kept so a run can look for recovery warnings, and both a clean
 * stop and a SIGKILL.
 */
export interface ProofDaemon {
  url: string;
  pid: number;
  log(): string;
  /** Resident set size in bytes (from /proc), or null where there is none. */
  rss(): number | null;
  kill(): Promise<void>;
  stop(): Promise<void>;
}

export async function startProofDaemon(
  dataDir: string,
  env: Record<string, string> = {},
  args: string[] = [],
  /** A command that runs the daemon (e.g. strace and its flags): signals then go to the daemon, not to it. */
  wrapper: string[] = [],
): Promise<ProofDaemon> {
  const command = [process.execPath, CLI_MAIN, 'daemon', 'start', '--foreground', '--port', '0', '--data', dataDir];
  const [file, ...rest] = [...wrapper, ...command, ...args];
  const child: ChildProcess = spawn(file!, rest, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (c) => (err += c));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`daemon did not start within 60 s: ${err}`)), 60_000);
    child.stdout!.on('data', (c) => {
      out += c;
      const found = /^listening on (\S+)/m.exec(out)?.[1];
      if (found && /^next:/m.test(out)) {
        clearTimeout(timer);
        resolve(found);
      }
    });
    child.once('exit', (code) => reject(new Error(`daemon exited with ${code}: ${err}`)));
  });
  child.removeAllListeners('exit');
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  // strace, for one, passes no signal on to what it runs: the daemon is its only child.
  const pid = wrapper.length
    ? Number(readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8'))
    : child.pid!;
  const signal = async (sig: NodeJS.Signals) => {
    try {
      if (child.exitCode === null && child.signalCode === null) process.kill(pid, sig);
    } catch {
      // The daemon is gone already; its wrapper follows.
    }
    await exited;
  };
  return {
    url,
    pid,
    log: () => err,
    rss: () => rssOf(pid),
    kill: () => signal('SIGKILL'),
    stop: () => signal('SIGTERM'),
  };
}

export function rssOf(pid: number): number | null {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : null;
  } catch {
    return null;
  }
}

/** `--name value` / `--name=value` from argv, else the environment variable, else the default. */
/**
 * `--database URL` of the proof commands (team mode on a throwaway database): absent when not
 * given; a flag without a postgres:// URL after it stops the command instead of quietly running
 * on a data folder.
 */
export function databaseOption(argv = process.argv.slice(2)): { database?: string } {
  const i = argv.findIndex((a) => a === '--database' || a.startsWith('--database='));
  if (i < 0) return {};
  const url = argv[i]!.includes('=') ? argv[i]!.slice('--database='.length) : argv[i + 1];
  if (!url || !/^postgres(ql)?:\/\//.test(url))
    throw new Error(`--database needs a postgres:// URL of an empty, throwaway database, got ${url ?? 'nothing'}`);
  return { database: url };
}

/** A proof command's flags, read by `read`: a bad one stops it with one line and exit code 2, not a stack. */
export function readFlags<T>(command: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    process.stderr.write(`${command}: ${(err as Error).message}\n`);
    process.exit(2);
  }
}

export function option(name: string, envName: string, fallback: number): number {
  const argv = process.argv.slice(2);
  const i = argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  const raw = i < 0 ? process.env[envName] : argv[i]!.includes('=') ? argv[i]!.split('=')[1] : argv[i + 1];
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} (${envName}) must be a number, got ${raw}`);
  return value;
}

export const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : 0;

/** `--name value` (else the environment variable, else the default) that must be one of `choices`. */
export function choiceOption<T extends string>(name: string, envName: string, choices: readonly T[], fallback: T): T {
  const argv = process.argv.slice(2);
  const i = argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  const raw = i < 0 ? process.env[envName] : argv[i]!.includes('=') ? argv[i]!.split('=')[1] : argv[i + 1];
  if (raw === undefined) return fallback;
  if (!choices.includes(raw as T))
    throw new Error(`--${name} (${envName}) must be one of ${choices.join(', ')}, got ${raw}`);
  return raw as T;
}
