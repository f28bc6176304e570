import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BenchCase } from '../harness.js';
import { loginBenchUser } from './30-me.js';

const CLI = fileURLToPath(new URL('../../cli/main.js', import.meta.url));
const ROUNDS = 21;

/**
 * Start time of the CLI, as a user feels it: the whole process, from spawn to exit, against
 * `node -e 0` (the floor any Node program pays) measured in the same run, interleaved, so load
 * from other processes hits both alike. Each figure is the median of the rounds.
 */
const cliStart: BenchCase = {
  name: 'CLI start time',
  async run(env) {
    const token = await loginBenchUser(env, 'bench-cli@example.com', 'a benchmark password');
    const cliEnv = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      SVC_KEYCHAIN: 'off',
      SVC_TOKEN: token,
      SVC_URL: env.daemon.url,
      SVC_CONFIG_DIR: env.daemon.dataDir + '-cli',
    };
    const runs: Record<string, string[]> = {
      node: ['-e', '0'],
      version: [CLI, '--version'],
      keys: [CLI, 'keys', 'list', '--json'],
    };
    const check = spawnSync(process.execPath, runs.keys!, { env: cliEnv, encoding: 'utf8' });
    if (check.status !== 0) throw new Error(`svc keys list --json failed: ${check.stderr}`);
    const times: Record<string, number[]> = { node: [], version: [], keys: [] };
    for (let i = 0; i < ROUNDS; i++) {
      for (const [name, args] of Object.entries(runs)) {
        const start = process.hrtime.bigint();
        spawnSync(process.execPath, args, { env: cliEnv, stdio: 'ignore' });
        times[name]!.push(Number(process.hrtime.bigint() - start) / 1e6);
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const node = median(times.node!);
    return [
      {
        name: 'svc --version (whole process)',
        value: median(times.version!),
        unit: 'ms',
        baseline: node,
        baselineName: 'node -e 0',
        target: '<= 1.5',
      },
      {
        name: 'svc keys list --json, daemon up',
        value: median(times.keys!),
        unit: 'ms',
        baseline: node,
        baselineName: 'node -e 0',
        target: '<= 2',
      },
    ];
  },
};
export default cliStart;
