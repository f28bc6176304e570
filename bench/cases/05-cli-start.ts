import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchCase, BenchRow } from '../harness.js';
import { loginBenchUser } from './30-me.js';

// What `svc` runs: the package's bin (dist/cli/svc.cjs, a CommonJS launcher; docs/performance.md).
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = join(ROOT, JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).bin.svc as string);
const ROUNDS = 21;

/**
 * CPU seconds (user + system) of this process's waited-for children so far: cutime and cstime of
 * /proc/self/stat (fields 16 and 17, clock ticks of 10 ms); null where there is no /proc. Summed
 * over the rounds, it tells what a start costs in CPU, which a loaded machine inflates far less
 * than the wall time (where waiting for a core dominates).
 */
function childCpuSeconds(): number | null {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return null;
  }
}

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
    const cpu: Record<string, number> = { node: 0, version: 0, keys: 0 };
    for (let i = 0; i < ROUNDS; i++) {
      for (const [name, args] of Object.entries(runs)) {
        const cpuBefore = childCpuSeconds();
        const start = process.hrtime.bigint();
        spawnSync(process.execPath, args, { env: cliEnv, stdio: 'ignore' });
        times[name]!.push(Number(process.hrtime.bigint() - start) / 1e6);
        cpu[name]! += (childCpuSeconds() ?? 0) - (cpuBefore ?? 0);
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const node = median(times.node!);
    const cpuMs = (name: string) => (cpu[name]! / ROUNDS) * 1000;
    const cpuRows = (): BenchRow[] =>
      childCpuSeconds() === null
        ? []
        : [
            {
              name: '  same, CPU time per run (mean)',
              value: cpuMs('version'),
              unit: 'ms',
              baseline: cpuMs('node'),
              baselineName: 'node -e 0',
            },
            {
              name: '  keys list, CPU time per run (mean)',
              value: cpuMs('keys'),
              unit: 'ms',
              baseline: cpuMs('node'),
              baselineName: 'node -e 0',
            },
          ];
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
      ...cpuRows(),
    ];
  },
};
export default cliStart;
