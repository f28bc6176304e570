import { inProcessDaemon } from './in-process.js';

/**
 * `node serve-in-process.js <data folder>`: the bench's in-process daemon (real file stores, cheap
 * password hashing, raised login throttle) in a process of its own, so that two of them, on a small
 * and a large data folder, each have their own heap and garbage collector while the bench drives
 * them in turn. Prints `listening on <url>` (what harness.startServer waits for); SIGTERM stops it cleanly.
 */
const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: serve-in-process.js <data folder>');
const daemon = await inProcessDaemon(dataDir);
process.once('SIGTERM', () => {
  daemon.stop().then(() => process.exit(0));
});
process.stdout.write(`listening on ${daemon.url}\n`);
