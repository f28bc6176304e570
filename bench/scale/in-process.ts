import { createServer } from 'node:http';
import { createApp } from '../../daemon/app.js';
import { systemClock } from '../../daemon/clock.js';
import { defaultConfig } from '../../daemon/config.js';
import { loadSecrets } from '../../daemon/data-dir.js';
import type { Deps } from '../../daemon/deps.js';
import { createIdGenerator } from '../../daemon/ids.js';
import { silentLogger } from '../../daemon/logger.js';
import { createOutboxMailer } from '../../daemon/mailer.js';
import { cryptoRandom } from '../../daemon/random.js';
import { createRuntimeHost } from '../../daemon/company/host.js';
import { closeGracefully, listen } from '../../daemon/server.js';
import { openFileStores } from '../../daemon/store/index.js';
import { createSealer } from '../../daemon/store/sealer.js';

/**
 * The daemon in this process on a seeded data folder, with the real file stores, served on a
 * loopback port: so the benchmark can time a store call and watch this event loop's stalls.
 * Password hashing is lowered to the seed's cost and the per-address login throttle raised.
 */
export async function inProcessDaemon(dataDir: string) {
  const clock = systemClock;
  const ids = createIdGenerator(clock, cryptoRandom);
  const secrets = loadSecrets(dataDir);
  const sealer = createSealer(secrets.mailKey);
  // 100 logins from one address would meet the per-address throttle (30 per 5 min): raised here only.
  const auth = {
    passwordHash: { N: 2 ** 10, r: 8, p: 1, maxmem: 32 * 1024 * 1024 },
    loginPerAddress: [{ limit: 1000, windowMs: 5 * 60_000 }],
  };
  const config = defaultConfig({ dataDir, auth });
  const stores = await openFileStores(dataDir, { clock, ids, sealer, outboxMax: config.outboxMax });
  const runtimes = createRuntimeHost({
    config,
    clock,
    ids,
    log: silentLogger,
    storage: 'file',
    sealer,
    random: cryptoRandom,
  });
  const deps: Deps = {
    config,
    clock,
    random: cryptoRandom,
    ids,
    secrets,
    stores,
    log: silentLogger,
    runtimes,
    mailer: createOutboxMailer(stores.outbox, silentLogger),
  };
  const server = createServer(createApp(deps).callback());
  const port = await listen(server, '127.0.0.1', 0);
  let n = 0;
  return {
    url: `http://127.0.0.1:${port}`,
    createSession(userId: string) {
      const now = Date.now();
      return stores.sessions.create({
        id: ids('ses'),
        user_id: userId,
        kind: 'full',
        method: ['pwd'],
        created_at: new Date(now).toISOString(),
        last_seen_at: new Date(now).toISOString(),
        expires_at: new Date(now + 3_600_000).toISOString(),
        revoked_at: null,
        user_agent: `bench ${n++}`,
        ip: '127.0.0.1',
      });
    },
    async stop() {
      await closeGracefully(server, 1000);
      await runtimes.close();
      await stores.close();
    },
  };
}
