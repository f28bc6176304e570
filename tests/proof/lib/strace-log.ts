import { spawnSync } from 'node:child_process';
import { dirname } from 'node:path';

/**
 * Reading a daemon's system calls as `strace -f -y` wrote them, to check the order in which an
 * acknowledged write reached the disk and the socket. strace stops a thread at the exit of every
 * traced call until it has printed it, so a line's place in the file is causal: a sync printed
 * before the answer's write returned before the thread that asked for it could tell the event
 * loop, and so before the answer was sent.
 */
export const TRACED = ['write', 'writev', 'pwrite64', 'pwritev', 'pwritev2', 'fsync', 'fdatasync'];
export const TRACED_RENAMES = ['rename', 'renameat', 'renameat2'];

export interface Syscall {
  name: string;
  /** The line of its start and of its end (the same unless another thread's call came between). */
  start: number;
  end: number;
  /** The path -y printed for its first argument (`socket:[…]` for a socket), if any. */
  path: string | null;
  /** Its arguments and result as printed, strings included (up to -s characters). */
  text: string;
}

/** Why strace cannot be used here, or null when it can (`strace` missing, or ptrace refused). */
export function straceUnavailable(): string | null {
  const r = spawnSync('strace', [...straceFlags('/dev/null'), 'true'], { encoding: 'utf8', timeout: 10_000 });
  if (r.error) return `strace not found (${(r.error as NodeJS.ErrnoException).code}): apt-get install strace`;
  if (r.status !== 0) return `strace cannot trace here: ${(r.stderr.trim().split('\n')[0] ?? '').slice(0, 160)}`;
  return null;
}

/**
 * The strace command line that writes `traceFile`: every thread (-f), fds with their paths (-y),
 * whole strings (a batch of lines is one write), and only the calls above; with seccomp-bpf, the
 * other calls run at full speed.
 */
export function straceFlags(traceFile: string): string[] {
  return ['-f', '--seccomp-bpf', '-qq', '-y', '-s', String(1 << 24), '-o', traceFile];
}
export const straceCommand = (traceFile: string) => [
  'strace',
  ...straceFlags(traceFile),
  '-e',
  `trace=${[...TRACED, ...TRACED_RENAMES].join(',')}`,
];

export function parseTrace(log: string): Syscall[] {
  const calls: Syscall[] = [];
  const open = new Map<string, Syscall>();
  log.split('\n').forEach((line, i) => {
    const m = /^(\d+) +(.*)$/.exec(line);
    if (!m) return;
    const [, pid, rest] = m as unknown as [string, string, string];
    const resumed = /^<\.\.\. (\w+) resumed>(.*)$/.exec(rest);
    if (resumed) {
      const call = open.get(pid);
      open.delete(pid);
      if (call) Object.assign(call, { end: i, text: call.text + resumed[2] });
      return;
    }
    const started = /^(\w+)\((.*)$/.exec(rest);
    if (!started) return;
    const unfinished = started[2]!.endsWith(' <unfinished ...>');
    const path = /^\d+<(.*?)>[,) ]/.exec(started[2]!)?.[1] ?? null;
    const call: Syscall = { name: started[1]!, start: i, end: i, path, text: started[2]! };
    calls.push(call);
    if (unfinished) open.set(pid, call);
  });
  return calls;
}

/** The quoted strings among a call's arguments (rename's paths), unescaped enough for plain paths. */
const quoted = (text: string) => [...text.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]!);

/**
 * Checks, for each id the daemon acknowledged, that the first write of it into `dataDir` was made
 * durable before the first write of it on a socket (the answer): a successful fsync or fdatasync of
 * that file started after the write and returned before the answer; a temp file must also have
 * been renamed into place and its folder synced, before the answer. Returns one line per failure.
 */
export function checkSyncOrder(calls: Syscall[], dataDir: string, ids: Iterable<string>): string[] {
  const wanted = new Set(ids);
  const firstWrite = new Map<string, Syscall>();
  const firstAnswer = new Map<string, Syscall>();
  const syncs = new Map<string, Syscall[]>();
  const renames: { from: string; to: string; call: Syscall }[] = [];
  for (const c of calls) {
    if ((c.name === 'fsync' || c.name === 'fdatasync') && c.path && / = 0$/.test(c.text))
      (syncs.get(c.path) ?? syncs.set(c.path, []).get(c.path)!).push(c);
    else if (TRACED_RENAMES.includes(c.name) && / = 0$/.test(c.text)) {
      const [from, to] = quoted(c.text);
      if (from && to) renames.push({ from, to, call: c });
    } else if (c.path && /write/.test(c.name)) {
      const into = c.path.startsWith(dataDir + '/')
        ? firstWrite
        : /^(socket|TCP|TCPv6):/.test(c.path)
          ? firstAnswer
          : null;
      if (!into) continue;
      for (const [token] of c.text.matchAll(/[a-z]+_[0-9a-z]+/g))
        if (wanted.has(token) && !into.has(token)) into.set(token, c);
    }
  }
  const syncedBetween = (path: string, after: number, before: number) =>
    (syncs.get(path) ?? []).some((s) => s.start > after && s.end < before);
  const problems: string[] = [];
  for (const id of wanted) {
    const answer = firstAnswer.get(id);
    const write = firstWrite.get(id);
    if (!answer) problems.push(`${id}: its answer is not in the trace`);
    else if (!write || write.start > answer.start)
      problems.push(`${id}: answered before it was written to the data folder`);
    else if (!syncedBetween(write.path!, write.end, answer.start))
      problems.push(`${id}: answered with ${write.path} written (${write.name}) but not synced`);
    else if (write.path!.endsWith('.tmp')) {
      const moved = renames.find((r) => r.from === write.path && r.call.start > write.end && r.call.end < answer.start);
      if (!moved) problems.push(`${id}: answered before ${write.path} was renamed into place`);
      else if (!syncedBetween(dirname(moved.to), moved.call.end, answer.start))
        problems.push(`${id}: answered before the folder of ${moved.to} was synced after the rename`);
    }
  }
  return problems;
}
