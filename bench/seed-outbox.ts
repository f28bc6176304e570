import { systemClock } from '../daemon/clock.js';
import { ensureDataDir, loadSecrets } from '../daemon/data-dir.js';
import { createIdGenerator } from '../daemon/ids.js';
import { cryptoRandom } from '../daemon/random.js';
import { openFileStores } from '../daemon/store/index.js';
import { createSealer } from '../daemon/store/sealer.js';

export const SEEDED_RECIPIENTS = 40;
export const SEEDED_PER_RECIPIENT = 5;

/** The address of the n-th seeded recipient (0-based). */
export const seededAddress = (n: number) => `user${n}@example.com`;

/**
 * Writes a realistic outbox into a data folder before the daemon starts, through the daemon's own
 * store code (sealed bodies, the same file): 40 recipients with 5 messages each — sign-up codes
 * and magic links — interleaved as they would arrive, so a `?to=` read filters 200 rows and opens 5.
 */
export async function seedOutbox(dataDir: string): Promise<void> {
  ensureDataDir(dataDir);
  const secrets = loadSecrets(dataDir);
  const clock = systemClock;
  const ids = createIdGenerator(clock, cryptoRandom);
  const stores = await openFileStores(dataDir, { clock, ids, sealer: createSealer(secrets.mailKey), outboxMax: 1000 });
  for (let round = 0; round < SEEDED_PER_RECIPIENT; round++) {
    for (let n = 0; n < SEEDED_RECIPIENTS; n++) {
      const code = String(100000 + ((n * 7919 + round * 104729) % 900000));
      await stores.outbox.record({
        to: seededAddress(n),
        subject: round % 2 ? 'Your svc sign-in link' : 'Your svc verification code',
        text: `Your code is ${code}. It expires in 10 minutes.\nIf you did not ask for it, ignore this message.`,
        code,
        link: round % 2 ? `http://127.0.0.1:7878/auth/magic?token=${ids('tok')}` : null,
      });
    }
  }
  // Closed before the daemon opens the same journal.
  await stores.close();
}
