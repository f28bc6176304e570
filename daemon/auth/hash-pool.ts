import { Worker } from 'node:worker_threads';

/**
 * scrypt off the libuv thread pool, so password hashes never wait behind fsync and appends never
 * wait behind hashes. `crypto.scrypt` runs in libuv's pool of 4 threads, the same one every fs
 * call and fsync uses; at N=2^17 a hash holds a thread ~100 ms and 128 MiB, so there 8 clients
 * logging in cut event appends from ~2000/s to ~90/s and pushed RSS to 670 MB. Here hashes run
 * in a few worker threads of their own (scryptSync inside the worker), so file I/O keeps its
 * threads, and at most `threads` hashes (× 128 MiB) are live.
 * Jobs beyond that wait in a FIFO of at most `queue`; past that the caller is told to come back
 * (PoolBusy), which the login routes answer with 429 + Retry-After instead of piling up memory.
 * Every job, for a known or an unknown e-mail, takes the same path, so the wait reveals nothing.
 */
export interface HashPoolOptions {
  threads: number;
  queue: number;
}

export interface ScryptJob {
  password: string;
  salt: Buffer;
  keyLength: number;
  N: number;
  r: number;
  p: number;
  maxmem: number;
}

export class PoolBusy extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('password hashing queue is full');
  }
}

const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { scryptSync } = require('node:crypto');
parentPort.on('message', (job) => {
  try {
    const key = scryptSync(job.password, Buffer.from(job.salt), job.keyLength, { N: job.N, r: job.r, p: job.p, maxmem: job.maxmem });
    parentPort.postMessage({ key });
  } catch (err) {
    parentPort.postMessage({ error: String(err && err.message || err) });
  }
});`;

interface Pending {
  job: ScryptJob;
  resolve(key: Buffer): void;
  reject(err: Error): void;
}

export interface HashPool {
  derive(job: ScryptJob): Promise<Buffer>;
  /** Jobs running and waiting, for the bench and tests. */
  load(): { running: number; waiting: number };
  close(): Promise<void>;
}

export function createHashPool(options: HashPoolOptions): HashPool {
  const idle: Worker[] = [];
  const busy = new Map<Worker, Pending>();
  const waiting: Pending[] = [];
  let workers = 0;
  let averageMs = 100;
  let closing = false;

  const spawn = (): Worker => {
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    worker.unref(); // an idle pool never keeps the process alive
    workers++;
    worker.on('error', (err) => retire(worker, err));
    worker.on('exit', () => retire(worker, new Error('password hashing worker exited')));
    return worker;
  };

  /** A crashed worker fails its one job and is replaced on demand; the others carry on. */
  const retire = (worker: Worker, err: Error) => {
    const job = busy.get(worker);
    if (!busy.delete(worker) && !idle.includes(worker)) return;
    const at = idle.indexOf(worker);
    if (at >= 0) idle.splice(at, 1);
    workers--;
    job?.reject(err);
    pump();
  };

  const run = (worker: Worker, pending: Pending) => {
    busy.set(worker, pending);
    const started = Date.now();
    worker.once('message', (answer: { key?: Uint8Array; error?: string }) => {
      busy.delete(worker);
      averageMs = averageMs * 0.8 + (Date.now() - started) * 0.2;
      if (closing && waiting.length === 0) void worker.terminate();
      else idle.push(worker);
      if (answer.key) pending.resolve(Buffer.from(answer.key));
      else pending.reject(new Error(answer.error ?? 'scrypt failed'));
      pump();
    });
    const { password, salt, keyLength, N, r, p, maxmem } = pending.job;
    worker.postMessage({ password, salt, keyLength, N, r, p, maxmem });
  };

  const pump = () => {
    while (waiting.length > 0) {
      const worker = idle.pop() ?? (workers < options.threads ? spawn() : undefined);
      if (!worker) return;
      run(worker, waiting.shift()!);
    }
  };

  return {
    derive(job) {
      if (waiting.length >= options.queue) {
        const seconds = Math.ceil(((waiting.length / Math.max(1, options.threads)) * averageMs) / 1000);
        return Promise.reject(new PoolBusy(Math.max(1, seconds)));
      }
      return new Promise<Buffer>((resolve, reject) => {
        waiting.push({ job, resolve, reject });
        pump();
      });
    },
    load: () => ({ running: busy.size, waiting: waiting.length }),
    /** Lets running and queued jobs finish, then ends the workers. */
    async close() {
      closing = true;
      const all = idle.splice(0);
      await Promise.all(all.map((w) => w.terminate()));
    },
  };
}
