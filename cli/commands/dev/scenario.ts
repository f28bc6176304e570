import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { FailedError, UsageError } from '../../errors.js';
import { endSeedSessions } from '../../dev/apply-seed.js';
import { readDataFile, seedOf } from '../../dev/seed-file.js';
import { runSteps } from '../../dev/scenario-steps.js';
import { seedDaemon } from './seed.js';

/**
 * `svc dev scenario run FILE`: seeds the file's `seed` (as `svc dev seed` does), runs its `steps`
 * and reports each; exit 1 when an expectation missed, with what was expected and what happened.
 */
export async function runScenario(opts: { file: string; data?: string }, ctx: CliContext): Promise<void> {
  const value = readDataFile(opts.file);
  if (!Array.isArray(value.steps)) throw new UsageError(`${opts.file}: a scenario needs "steps", a list`);
  for (const key of Object.keys(value))
    if (!['seed', 'steps', 'company', 'description', '$schema'].includes(key))
      throw new UsageError(`${opts.file}: unknown key '${key}' (a scenario holds seed, steps, company)`);
  const seed = seedOf((value.seed ?? {}) as Record<string, unknown>, `${opts.file}: seed`);
  const run = await seedDaemon(ctx, seed, opts.data, { keepSessions: true });
  const companies = Object.keys(run.made.companies);
  const company = value.company ?? (companies.length === 1 ? companies[0] : undefined);
  let results: Awaited<ReturnType<typeof runSteps>>;
  try {
    results = await runSteps(run, value.steps, company);
  } finally {
    await endSeedSessions(run);
  }
  const missed = results.filter((r) => !r.ok);
  if (ctx.json) ctx.printJson({ ok: missed.length === 0, steps: results });
  else {
    for (const r of results) {
      ctx.out(`${r.ok ? 'ok  ' : 'FAIL'}  ${r.index}. ${r.label}`);
      for (const p of r.problems) ctx.out(`        ${p}`);
    }
    const checks = results.filter((r) => r.kind === 'expect');
    ctx.out(`${checks.length - missed.length} of ${checks.length} expectations met`);
  }
  if (missed.length)
    throw new FailedError(`scenario ${opts.file}: ${missed.length} expectation${missed.length > 1 ? 's' : ''} missed`);
}

export function devScenarioCommand(makeCtx: ContextFactory): Command {
  const run = new Command('run')
    .description('seed, then run the steps (trigger, advance, expect); exit 1 on a miss')
    .argument('<file>')
    .option('--data <dir>', 'data folder of the local daemon');
  return new Command('scenario')
    .description('scenarios: a seed plus steps and expectations, for keeping rule sets under test')
    .addCommand(action(run, makeCtx, (ctx, flags, file: string) => runScenario({ file, data: flags.data }, ctx)));
}
