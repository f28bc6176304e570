import { PROOF_PASSWORD } from './accounts.js';
import { bearer, call, type Answer } from './client.js';
import { changedParts, type Digest } from './digest.js';
import type { FuzzRequest } from './fuzz-cases.js';

/** Refused requests on these routes write by design: a wrong code or a failed factor is counted on disk (SECURITY.md: tries per code). */
const COUNTS_ATTEMPTS =
  /\/api\/auth\/(verify|login\/code\/consume|totp|login\/totp|email\/confirm)|\/api\/me\/email\/confirm/;

export interface BatchOptions {
  url: string;
  concurrency: number;
  /** The daemon's log so far (its stderr). */
  daemonLog(): string;
  /** The records on disk or in the database. */
  digest(): Promise<Digest>;
  /** The owner's session, renewed here when a request ended it. */
  session: { token: string };
  email: string;
  out(line: string): void;
}

/**
 * Sends the queue in batches of `concurrency × 5` and checks after each: every answer, /healthz,
 * the daemon's log, and the records (unchanged when every request of the batch was refused).
 */
export async function runBatches(
  queue: FuzzRequest[],
  o: BatchOptions,
): Promise<{ byStatus: Record<string, number>; violations: string[] }> {
  const byStatus: Record<string, number> = {};
  const violations: string[] = [];
  const unauthorized: Record<string, number> = {};
  let logRead = 0;
  // Requests are made up front with the session of the time; one that a logout ended is renewed
  // below, and the requests still to send carry the new one, so they reach past the 401.
  const ended = new Set<string>();
  const withLiveSession = (headers: Record<string, string>) =>
    ended.has(headers.authorization ?? '') ? { ...headers, authorization: `Bearer ${o.session.token}` } : headers;
  let before = await o.digest();
  const BATCH = o.concurrency * 5;
  for (let start = 0; start < queue.length; start += BATCH) {
    const batch = queue.slice(start, start + BATCH);
    const answers: [FuzzRequest, Answer][] = [];
    for (let i = 0; i < batch.length; i += o.concurrency) {
      const slice = batch.slice(i, i + o.concurrency);
      const got = await Promise.all(
        slice.map((r) =>
          call(o.url, r.path, {
            method: r.method,
            headers: withLiveSession(r.headers),
            raw: r.method === 'GET' || r.method === 'HEAD' ? undefined : r.raw,
          }),
        ),
      );
      slice.forEach((r, j) => void answers.push([r, got[j]!]));
    }
    for (const [r, a] of answers) {
      const key = a.status <= 0 ? (a.status === -1 ? 'hang' : 'socket error') : String(a.status);
      byStatus[key] = (byStatus[key] ?? 0) + 1;
      if (a.status === 401) unauthorized[r.route] = (unauthorized[r.route] ?? 0) + 1;
      if (a.status === 0 && process.env.SVC_FUZZ_DEBUG)
        o.out(`  socket error: ${r.method} ${r.path.slice(0, 80)} ${r.raw?.length ?? 0} bytes: ${a.text}`);
      const problem = judge(r, a);
      if (problem) violations.push(`${r.method} ${printable(r.path)} (${r.route}) → ${problem}`);
    }
    if ((await call(o.url, '/healthz', { timeoutMs: 5_000 })).status !== 200)
      violations.push(`/healthz stopped answering after request ${start + batch.length}`);
    const log = o.daemonLog();
    for (const line of errorLines(log.slice(logRead)))
      violations.push(`the daemon logged an error: ${line.slice(0, 300)}`);
    logRead = log.length;
    const wrote = answers.some(
      ([r, a]) => a.status < 400 || COUNTS_ATTEMPTS.test(r.path) || (r.path.startsWith('/api/mcp') && a.status === 200),
    );
    const after = wrote ? await settled(o.digest) : await o.digest();
    if (!wrote && after.digest !== before.digest)
      violations.push(
        `records changed (${changedParts(before, after).join(', ')}) in a batch where every request was refused: ${[...new Set(answers.map(([r]) => r.route))].join(', ')}`,
      );
    before = after;
    if ((await call(o.url, '/api/me', { headers: bearer(o.session.token) })).status === 401) {
      // The session-ending routes come last; past the login throttle the rest simply meet a 401.
      const login = await call(o.url, '/api/auth/login', { body: { email: o.email, password: PROOF_PASSWORD } });
      if (login.status === 200) {
        ended.add(`Bearer ${o.session.token}`);
        o.session.token = login.body.token;
      }
      before = await o.digest(); // the new session is a record: the next batch starts from here
    }
    if (start % (BATCH * 25) === 0)
      o.out(`  ${start + batch.length}/${queue.length} requests, ${violations.length} violations`);
  }
  if (process.env.SVC_FUZZ_DEBUG) o.out(`  401 by route: ${JSON.stringify(unauthorized)}`);
  return { byStatus, violations };
}

/**
 * The records once an accepted request's background writes (mail, firings) have landed: read
 * until two reads 100 ms apart agree (at most 2 s), so a write that lands late is not blamed on the
 * next batch, whose requests may all be refused.
 */
async function settled(digest: () => Promise<Digest>): Promise<Digest> {
  let last = await digest();
  for (let i = 0; i < 20; i++) {
    await new Promise((r) => setTimeout(r, 100));
    const next = await digest();
    if (next.digest === last.digest) return next;
    last = next;
  }
  return last;
}

/**
 * What is wrong with one answer, or null. Besides a 5xx or a hang: MCP answers a tool that threw
 * something unexpected with a 200 whose result says it "failed unexpectedly" (or a JSON-RPC
 * internal error), which is the 500 of a tool call.
 */
export function judge(r: FuzzRequest, a: Answer): string | null {
  if (a.status >= 500 || a.status === -1) return `${a.status === -1 ? 'hang' : a.status} ${a.text.slice(0, 200)}`;
  if (r.path.startsWith('/api/mcp') && a.status === 200) {
    for (const message of [a.body].flat()) {
      const text = message?.result?.content?.[0]?.text;
      if (message?.error?.code === -32603 || (message?.result?.isError && /failed unexpectedly/.test(String(text))))
        return `MCP internal error: ${JSON.stringify(message).slice(0, 200)}`;
    }
  }
  return null;
}

/** The lines logged at level error (the daemon's lines read `<time> <level> <message> {fields}`). */
export const errorLines = (log: string): string[] => log.split('\n').filter((line) => /^\S+ error /.test(line));

/** A path as a violation line shows it: short, with raw bytes and control characters escaped. */
const printable = (path: string) => JSON.stringify(path.slice(0, 120)).slice(1, -1);
