import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const CLI_MAIN = fileURLToPath(new URL('../../cli/main.js', import.meta.url));

/** A real daemon process on a free port over `dataDir`; resolves once it printed its URL. */
export async function startDaemonProcess(dataDir: string): Promise<{ url: string; stop(): Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, [CLI_MAIN, 'daemon', 'start', '--foreground', '--port', '0', '--data', dataDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, SVC_DATA_DIR: dataDir },
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (c) => {
      out += c;
      const m = /^listening on (\S+)/m.exec(out);
      if (m) resolve(m[1]!);
    });
    child.stderr!.on('data', (c) => (err += c));
    child.once('exit', (code) => reject(new Error(`daemon exited with ${code}: ${err}`)));
  });
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Runs `svc <args>` as a process; resolves with its exit code and output. */
export function runCli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI_MAIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.once('exit', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}
