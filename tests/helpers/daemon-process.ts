import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const CLI_MAIN = fileURLToPath(new URL('../../cli/main.js', import.meta.url));

export interface DaemonProcess {
  url: string;
  /** The invite code the start-up banner printed. */
  invite: string;
  stop(): Promise<void>;
}

/** A real daemon process (`svc daemon start --foreground --port 0`) over `dataDir`; resolves once its banner is out. */
export async function startDaemonProcess(dataDir: string): Promise<DaemonProcess> {
  const child: ChildProcess = spawn(process.execPath, [CLI_MAIN, 'daemon', 'start', '--foreground', '--port', '0', '--data', dataDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, SVC_DATA_DIR: dataDir },
  });
  const { url, invite } = await new Promise<{ url: string; invite: string }>((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (c) => {
      out += c;
      const url = /^listening on (\S+)/m.exec(out)?.[1];
      const invite = /^invite code: (\S+)/m.exec(out)?.[1];
      if (url && invite) resolve({ url, invite });
    });
    child.stderr!.on('data', (c) => (err += c));
    child.once('exit', (code) => reject(new Error(`daemon exited with ${code}: ${err}`)));
  });
  return {
    url,
    invite,
    stop: () =>
      new Promise<void>((resolve) => {
        child.removeAllListeners('exit');
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Runs `svc <args>` as a process with only PATH, HOME and `env`, feeding `stdin`; resolves with its exit code and output. */
export function runCli(args: string[], env: Record<string, string>, stdin = ''): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI_MAIN, ...args], { stdio: ['pipe', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.once('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
    child.stdin.end(stdin);
  });
}
