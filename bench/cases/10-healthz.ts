import type { BenchCase } from '../harness.js';

/** The floor: the daemon's whole middleware chain on the cheapest route. */
const healthz: BenchCase = {
  name: 'GET /healthz',
  async run(env) {
    const measured = await env.compare(env.daemon.url + '/healthz');
    return [{ name: 'GET /healthz', ...measured, unit: 'req/s', target: '>= 0.6' }];
  },
};
export default healthz;
