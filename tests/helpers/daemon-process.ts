import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const CLI_MAIN = fileURLToPath(new URL('../../cli/main.js', import.meta.url));

/** A real daemon process on a free port over `dataDir`; resolves once it printed its URL. */
export async function startDaemonProcess(
  dataDir: string,
  extraArgs: string[] = [],
): Promise<{ url: string; firstLine: string; stdout(): string; pid: number; stop(): Promise<void>; terminate(): Promise<number | null> }> {
  const child: ChildProcess = spawn(process.execPath, [CLI_MAIN, 'daemon', 'start', '--foreground', '--port', '0', '--data', dataDir, ...extraArgs], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, SVC_DATA_DIR: dataDir },
  });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    let err = '';
    child.stdout!.on('data', (c) => {
      out += c;
      const m = /^listening on (\S+)/m.exec(out);
      if (m) resolve(m[1]!);
    });
    child.stderr!.on('data', (c) => (err += c));
    child.once('exit', (code) => reject(new Error(`daemon exited with ${code}: ${err}`)));
  });
  // SIGTERM, then the exit code the daemon chose (null when a signal killed it outright).
  const terminate = () =>
    new Promise<number | null>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
      child.once('exit', (code) => resolve(code));
      child.kill('SIGTERM');
    });
  return {
    url,
    firstLine: out.split('\n')[0]!,
    stdout: () => out,
    pid: child.pid!,
    stop: async () => void (await terminate()),
    terminate,
  };
}

/** Runs `svc <args>` as a process (with `input` on its stdin when given); resolves with its exit code and output. */
export function runCli(args: string[], env: Record<string, string>, input?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const stdin: 'ignore' | 'pipe' = input === undefined ? 'ignore' : 'pipe';
    const child = spawn(process.execPath, [CLI_MAIN, ...args], { stdio: [stdin, 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env } });
    if (input !== undefined) child.stdin!.end(input);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (c) => (stdout += c));
    child.stderr!.on('data', (c) => (stderr += c));
    child.once('exit', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}
