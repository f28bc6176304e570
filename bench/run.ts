/**
 * `npm run bench`: starts a bare Koa app, the floor app and the daemon once, runs every case in
 * bench/cases/ (or those whose name contains an argument), and prints each measurement with its
 * ratio to the baseline measured in the same run. `--duration S` and `--connections N` tune the load.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { openBenchEnv, type BenchCase, type BenchRow } from './harness.js';

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args.splice(i, 2)[1]) : fallback;
};
const duration = flag('duration', 5);
const connections = flag('connections', 20);
const filters = args;

const dir = fileURLToPath(new URL('./cases/', import.meta.url));
const cases: BenchCase[] = [];
for (const file of readdirSync(dir)
  .filter((f) => f.endsWith('.js'))
  .sort()) {
  const mod = (await import(pathToFileURL(join(dir, file)).href)) as { default: BenchCase };
  if (filters.length === 0 || filters.some((f) => mod.default.name.includes(f))) cases.push(mod.default);
}

const env = await openBenchEnv({ duration, connections });
let missed = 0;
try {
  process.stdout.write(`svc bench: ${cases.length} case(s), ${duration} s per load, ${connections} connections\n\n`);
  for (const c of cases) {
    process.stdout.write(`${c.name}\n`);
    let rows: BenchRow[];
    try {
      rows = await c.run(env);
    } catch (err) {
      missed++;
      process.stdout.write(`  FAILED: ${(err as Error).message}\n\n`);
      continue;
    }
    for (const row of rows) {
      const line = [`  ${row.name.padEnd(48)} ${fmt(row.value)} ${row.unit}`];
      if (row.baseline !== undefined) {
        const ratio = row.value / row.baseline;
        line.push(`  vs ${row.baselineName ?? 'bare Koa'} ${fmt(row.baseline)} ${row.unit}  ratio ${ratio.toFixed(2)}`);
        if (row.ratioRange) line.push(` (rounds ${row.ratioRange.map((r) => r.toFixed(2)).join('–')})`);
        if (row.cpuRatio !== undefined) line.push(`  cpu ratio ${row.cpuRatio.toFixed(2)}`);
        if (row.target) {
          // Where there is no /proc (no cpu ratio), a cpu-ratio target falls back to the req/s ratio, and says so.
          const onCpu = row.targetOn === 'cpu ratio' && row.cpuRatio !== undefined;
          const ok = meets(onCpu ? row.cpuRatio! : ratio, row.target);
          if (!ok) missed++;
          line.push(
            `  (target ${row.targetOn ? `${onCpu ? 'cpu ratio' : 'ratio'} ` : ''}${row.target}${ok ? '' : ' — MISSED'})`,
          );
        }
      } else if (row.target) {
        const ok = meets(row.value, row.target);
        if (!ok) missed++;
        line.push(`  (target ${row.target}${ok ? '' : ' — MISSED'})`);
      }
      process.stdout.write(line.join('') + '\n');
    }
    process.stdout.write('\n');
  }
} finally {
  await env.close();
}
process.stdout.write(missed ? `${missed} target(s) missed\n` : 'all targets met\n');

function fmt(n: number): string {
  return n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(2);
}

/** `>= 0.6`, `<= 1.5`, `< 100`… */
function meets(value: number, target: string): boolean {
  const m = /^(>=|<=|<|>)\s*([\d.]+)/.exec(target);
  if (!m) return true;
  const t = Number(m[2]);
  return m[1] === '>=' ? value >= t : m[1] === '<=' ? value <= t : m[1] === '<' ? value < t : value > t;
}
