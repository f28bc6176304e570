import type { BenchCase } from '../harness.js';

/** One read of captured mail through the operator guard, with 50 messages in the outbox. */
const devMail: BenchCase = {
  name: 'GET /api/dev/mail',
  async run(env) {
    const headers = { authorization: `Bearer ${env.daemon.operatorToken}` };
    for (let i = 0; i < 50; i++) {
      const invite = await env.call('POST', '/api/dev/invites', {}, headers);
      if (invite.status !== 201) throw new Error(`set-up failed: ${invite.status}`);
    }
    const baseline = await env.measure(env.baseline.url + '/');
    const value = await env.measure(env.daemon.url + '/api/dev/mail?to=nobody@example.com', { headers });
    return [{ name: 'GET /api/dev/mail (operator token)', value, unit: 'req/s', baseline, target: '>= 0.5' }];
  },
};
export default devMail;
