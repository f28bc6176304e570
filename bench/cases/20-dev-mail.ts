import type { BenchCase } from '../harness.js';
import { SEEDED_PER_RECIPIENT, SEEDED_RECIPIENTS, seededAddress } from '../seed-outbox.js';

/**
 * `svc mail --to <address>` as a user runs it while signing up: one read through the operator
 * guard of an outbox holding 200 messages to 40 addresses (seeded by the harness), which
 * filters every row and opens the 5 sealed messages of that address.
 */
const devMail: BenchCase = {
  name: 'GET /api/dev/mail',
  async run(env) {
    const headers = { authorization: `Bearer ${env.daemon.operatorToken}` };
    const to = seededAddress(Math.floor(SEEDED_RECIPIENTS / 2));
    const check = await env.call('GET', `/api/dev/mail?to=${encodeURIComponent(to)}`, undefined, headers);
    if (check.status !== 200 || check.body.mail.length !== SEEDED_PER_RECIPIENT) {
      throw new Error(
        `set-up failed: expected ${SEEDED_PER_RECIPIENT} messages to ${to}, got ${check.status} ${JSON.stringify(check.body).slice(0, 200)}`,
      );
    }
    const measured = await env.compare(env.daemon.url + `/api/dev/mail?to=${encodeURIComponent(to)}`, { headers });
    return [{ name: `GET /api/dev/mail?to= (5 of 200 messages)`, ...measured, unit: 'req/s', target: '>= 0.5' }];
  },
};
export default devMail;
