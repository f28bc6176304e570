import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from './daemon-process.js';

/**
 * Plumbing for tests/e2e/contract.test.ts: plain HTTP against a daemon process and the built CLI
 * with the environment of CONTRACT §5, recording every output so the walk can check, at the
 * end, that nothing printed to a pipe carried a colour or cursor escape.
 */
export interface HttpAnswer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

export interface HttpOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export function createWalk(url: () => string, dataDir: string, configDir: string) {
  const outputs: string[] = [];
  const env = (extra: Record<string, string> = {}) => ({
    SVC_URL: url(),
    SVC_DATA_DIR: dataDir,
    SVC_KEYCHAIN: 'off',
    SVC_CONFIG_DIR: configDir,
    ...extra,
  });

  /** `svc <args>` with the walk's environment (plus `extra`), output recorded. */
  async function svc(args: string[], options: { input?: string; env?: Record<string, string> } = {}) {
    const res = await runCli(args, env(options.env), options.input);
    outputs.push(res.stdout, res.stderr);
    return res;
  }

  /** `svc <args> --json`, which must succeed and print one JSON document. */
  async function svcJson(args: string[], options: { input?: string; env?: Record<string, string> } = {}): Promise<any> {
    const res = await svc([...args, '--json'], options);
    if (res.code !== 0) throw new Error(`svc ${args.join(' ')} exited ${res.code}: ${res.stderr}`);
    return JSON.parse(res.stdout);
  }

  async function http(method: string, path: string, options: HttpOptions = {}): Promise<HttpAnswer> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    }
    const res = await fetch(url() + path, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Left null: the caller asserts on the status and the JSON it expected.
    }
    return { status: res.status, headers: res.headers, text, body: parsed };
  }

  /** The session JWT the CLI stored for the (default) profile (SVC_KEYCHAIN=off keeps it in a 0600 file). */
  function storedToken(): string {
    const creds = JSON.parse(readFileSync(join(configDir, 'credentials.json'), 'utf8')) as Record<string, string>;
    return creds['token:profile:default']!;
  }

  return { outputs, env, svc, svcJson, http, storedToken };
}

/** The claims of a JWT, read without checking the signature (the daemon checks it). */
export function decodeClaims(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));
}
