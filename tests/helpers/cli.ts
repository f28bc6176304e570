import { PassThrough } from 'node:stream';
import type { ApiClient } from '../../cli/api-client.js';
import { createCliContext, type CliContext } from '../../cli/context.js';
import { main } from '../../cli/main.js';
import type { CredentialStore } from '../../cli/credentials/store.js';
import { tempDir } from './temp-dir.js';

export interface FakeCli {
  ctx: CliContext;
  stdout(): string;
  stderr(): string;
  credentials: Map<string, string>;
}

/** A CLI context over captured streams, a temp config folder and an in-memory credential store. */
export function createFakeCli(
  options: {
    env?: Record<string, string | undefined>;
    json?: boolean;
    url?: string;
    api?: ApiClient;
    stdin?: string;
  } = {},
): FakeCli {
  const out = new PassThrough();
  const err = new PassThrough();
  const stdin = new PassThrough();
  if (options.stdin !== undefined) stdin.end(options.stdin);
  let stdoutText = '';
  let stderrText = '';
  out.on('data', (c) => (stdoutText += c));
  err.on('data', (c) => (stderrText += c));
  const credentials = new Map<string, string>();
  const store: CredentialStore = {
    kind: () => 'file',
    get: async (a) => credentials.get(a) ?? null,
    set: async (a, s) => void credentials.set(a, s),
    delete: async (a) => credentials.delete(a),
  };
  const env = { SVC_CONFIG_DIR: tempDir('svc-config'), SVC_DATA_DIR: tempDir('svc-data'), ...options.env };
  const ctx = createCliContext({
    io: { stdout: out, stderr: err, stdin },
    env,
    globals: { json: options.json, url: options.url },
    overrides: { credentials: () => store, ...(options.api ? { api: () => options.api! } : {}) },
  });
  return { ctx, stdout: () => stdoutText, stderr: () => stderrText, credentials };
}

/** Streams for a CLI run: stdout and stderr captured as text, an ended stdin. */
export function captureIo() {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  stdin.end();
  let out = '';
  let err = '';
  stdout.on('data', (c) => (out += c));
  stderr.on('data', (c) => (err += c));
  return { io: { stdout, stderr, stdin }, out: () => out, err: () => err };
}

/** `svc <argv>` through main(), in-process, with temp config and data folders unless `env` names others. */
export async function runMain(
  argv: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; out: string; err: string }> {
  const { io, out, err } = captureIo();
  const code = await main(argv, {
    io,
    env: { SVC_CONFIG_DIR: tempDir('svc-config'), SVC_DATA_DIR: tempDir('svc-data'), SVC_KEYCHAIN: 'off', ...env },
  });
  return { code, out: out(), err: err() };
}
