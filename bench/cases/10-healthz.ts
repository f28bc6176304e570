import type { BenchCase } from '../harness.js';

/** The floor: the daemon's whole middleware chain on the cheapest route. */
const healthz: BenchCase = {
  name: 'GET /healthz',
  async run(env) {
    const baseline = await env.measure(env.baseline.url + '/');
    const value = await env.measure(env.daemon.url + '/healthz');
    return [{ name: 'GET /healthz', value, unit: 'req/s', baseline, target: '>= 0.6' }];
  },
};
export default healthz;
