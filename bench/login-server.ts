import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { createApp } from '../daemon/app.js';
import { hashPassword } from '../daemon/auth/passwords.js';
import { systemClock } from '../daemon/clock.js';
import { defaultConfig } from '../daemon/config.js';
import { createIdGenerator } from '../daemon/ids.js';
import { silentLogger } from '../daemon/logger.js';
import { createOutboxMailer } from '../daemon/mailer.js';
import { cryptoRandom } from '../daemon/random.js';
import { createRuntimeHost } from '../daemon/company/host.js';
import { createMemoryStores } from '../daemon/store/index.js';
import { createSealer } from '../daemon/store/sealer.js';

/**
 * The daemon's app for the login benchmark: the default scrypt cost (the point of the measure),
 * with the per-address login throttle lifted — from one address it would otherwise stop the load
 * at 30 logins per 5 minutes, by design. One user, bench-login@example.com, exists.
 */
const config = defaultConfig({ auth: { loginPerAddress: [{ limit: Number.MAX_SAFE_INTEGER, windowMs: 60_000 }] } });
const clock = systemClock;
const ids = createIdGenerator(clock, cryptoRandom);
const secrets = {
  jwtSecret: randomBytes(32),
  operatorToken: `op_${randomBytes(24).toString('base64url')}`,
  mailKey: randomBytes(32),
  codeKey: randomBytes(32),
};
const stores = await createMemoryStores({ clock, ids, sealer: createSealer(secrets.mailKey), outboxMax: 100 });
const runtimes = createRuntimeHost({ config, clock, ids, log: silentLogger });
const app = createApp({
  config,
  clock,
  random: cryptoRandom,
  ids,
  secrets,
  stores,
  log: silentLogger,
  runtimes,
  mailer: createOutboxMailer(stores.outbox, silentLogger),
});
const now = new Date().toISOString();
await stores.users.create({
  id: ids('usr'),
  email: 'bench-login@example.com',
  tier: 'trial',
  created_at: now,
  email_verified_at: now,
  password_hash: await hashPassword(process.argv[2] ?? 'a benchmark password', config.auth.passwordHash),
});
const server = createServer(app.callback()).listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  process.stdout.write(`listening on http://127.0.0.1:${port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
