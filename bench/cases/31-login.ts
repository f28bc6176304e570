import { fileURLToPath } from 'node:url';
import { startServer, type BenchCase } from '../harness.js';

/**
 * Password logins per second at the default scrypt cost (N=2^17, r=8, p=1): bounded by design,
 * reported with no target. Runs against its own daemon app (bench/login-server.ts) whose
 * per-address throttle is lifted, since every request here comes from one address.
 */
const login: BenchCase = {
  name: 'POST /api/auth/login',
  async run(env) {
    const password = 'a benchmark password';
    const server = await startServer(fileURLToPath(new URL('../login-server.js', import.meta.url)), [password]);
    try {
      const value = await env.measure(server.url + '/api/auth/login', {
        method: 'POST',
        body: { email: 'bench-login@example.com', password },
        // scrypt runs on libuv's 4 worker threads: more connections only queue. Logins take ~0.3 s each, so measure longer.
        connections: 4,
        duration: Math.max(env.duration, 10),
      });
      return [{ name: 'POST /api/auth/login (scrypt N=2^17, r=8, p=1)', value, unit: 'logins/s' }];
    } finally {
      await server.stop();
    }
  },
};
export default login;
