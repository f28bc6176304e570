import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const CLI_MAIN = fileURLToPath(new URL('../../cli/main.js', import.meta.url));

/**
 * The environment of a daemon process that a test wants cheap: a low scrypt cost, plus the opt-in
 * without which a daemon refuses to start with a test setting (daemon/test-settings.ts). With
 * `clockFile`, the clock offset file a test steps to move the daemon's time.
 */
export function testSettingsEnv(options: { clockFile?: string } = {}): Record<string, string> {
  return {
    SVC_ALLOW_TEST_SETTINGS: '1',
    SVC_TEST_SCRYPT_N: String(2 ** 10),
    ...(options.clockFile ? { SVC_TEST_CLOCK_FILE: options.clockFile } : {}),
  };
}

export interface DaemonProcess {
  url: string;
  /** The invite code of the start-up banner (its text line, or `invite_code` of the `--json` line). */
  invite: string;
  firstLine: string;
  stdout(): string;
  pid: number;
  /** SIGTERM, then wait for the exit. */
  stop(): Promise<void>;
  /** SIGTERM, then the exit code the daemon chose (null when a signal killed it outright). */
  terminate(): Promise<number | null>;
}

/**
 * A real daemon process (`svc daemon start --foreground --port 0 …extraArgs`) over `dataDir`; resolves
 * once its banner is out. `node`: flags for Node itself and extra environment (e.g. module-log.ts's hook).
 */
export async function startDaemonProcess(
  dataDir: string,
  extraArgs: string[] = [],
  node: { args?: string[]; env?: Record<string, string> } = {},
): Promise<DaemonProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    [...(node.args ?? []), CLI_MAIN, 'daemon', 'start', '--foreground', '--port', '0', '--data', dataDir, ...extraArgs],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, SVC_DATA_DIR: dataDir, ...node.env },
    },
  );
  let out = '';
  const { url, invite } = await new Promise<{ url: string; invite: string }>((resolve, reject) => {
    let err = '';
    child.stdout!.on('data', (c) => {
      out += c;
      const url = /^listening on (\S+)/m.exec(out)?.[1];
      const invite = /^invite code: (\S+)/m.exec(out)?.[1] ?? /"invite_code":"([^"]+)"/.exec(out)?.[1];
      if (url && invite) resolve({ url, invite });
    });
    child.stderr!.on('data', (c) => (err += c));
    child.once('exit', (code) => reject(new Error(`daemon exited with ${code}: ${err}`)));
  });
  const terminate = () =>
    new Promise<number | null>((resolve) => {
      child.removeAllListeners('exit');
      if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
      child.once('exit', (code) => resolve(code));
      child.kill('SIGTERM');
    });
  return {
    url,
    invite,
    firstLine: out.split('\n')[0]!,
    stdout: () => out,
    pid: child.pid!,
    stop: async () => void (await terminate()),
    terminate,
  };
}

/** Runs `svc <args>` as a process with only PATH, HOME and `env`, feeding `stdin`; resolves with its exit code and output. */
export function runCli(args: string[], env: Record<string, string>, stdin = ''): Promise<ProcessResult> {
  return runProcess(process.execPath, [CLI_MAIN, ...args], env, stdin);
}

export interface ProcessResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a program with only PATH, HOME and `env` in its environment, feeding `stdin`; its exit code and output. */
export function runProcess(
  command: string,
  args: string[],
  env: Record<string, string>,
  stdin = '',
  cwd?: string,
): Promise<ProcessResult> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.once('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
    child.stdin.end(stdin);
  });
}
