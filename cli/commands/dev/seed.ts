import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { createApiClient } from '../../api-client.js';
import { operatorApi } from '../../operator.js';
import { applySeed, type SeedRun } from '../../dev/apply-seed.js';
import { envNameOf, mergeEnvFile } from '../../dev/env-file.js';
import { readDataFile, seedOf, type SeedFile } from '../../dev/seed-file.js';
import { readSeedState, writeSeedState } from '../../dev/seed-state.js';

export interface SeedOptions {
  file: string;
  data?: string;
  reset?: boolean;
  yes?: boolean;
  writeEnv?: string;
}

/** The seed of a file: its top level, or its `seed` map (a scenario file seeds the same way). */
export function seedOfFile(file: string): SeedFile {
  const value = readDataFile(file);
  const inner = value.seed;
  return inner && typeof inner === 'object' && !Array.isArray(inner)
    ? seedOf(inner as Record<string, unknown>, `${file}: seed`)
    : seedOf(value, file, ['$schema', 'description', 'steps']);
}

/** Seeds a local daemon (operator token from its data folder) and returns what was made. */
export async function seedDaemon(
  ctx: CliContext,
  seed: SeedFile,
  data?: string,
  options: { keepSessions?: boolean } = {},
): Promise<SeedRun> {
  const dir = ctx.dataDir(data);
  const operator = operatorApi(ctx, data);
  const state = readSeedState(dir);
  try {
    const api = { operator, as: (token: string) => createApiClient(operator.baseUrl, async () => token) };
    return await applySeed(seed, api, state, options);
  } finally {
    // What was made before a failure is remembered too: the next run finds it instead of making it twice.
    writeSeedState(dir, state);
  }
}

/** `svc dev seed FILE`: users, Companies, keys, agents, sessions and configured events, idempotently. */
export async function runSeed(opts: SeedOptions, ctx: CliContext): Promise<void> {
  const seed = seedOfFile(opts.file);
  if (opts.reset) {
    const { resetDataFolder } = await import('../../dev/reset.js');
    await resetDataFolder(ctx, ctx.dataDir(opts.data), Boolean(opts.yes));
  }
  const run = await seedDaemon(ctx, seed, opts.data);
  const secrets: Record<string, string> = {};
  for (const line of run.lines)
    if (line.secret) secrets[envNameOf(line.name, seed.keys?.[line.name]?.env)] = line.secret;
  if (opts.writeEnv && Object.keys(secrets).length) mergeEnvFile(opts.writeEnv, secrets);
  const shown = opts.writeEnv ? {} : secrets;
  if (ctx.json)
    return ctx.printJson({
      ok: true,
      made: run.lines.map(({ secret, ...l }) => ({ ...l, ...(secret && !opts.writeEnv ? { secret } : {}) })),
      ...(opts.writeEnv ? { env_file: opts.writeEnv, written: Object.keys(secrets) } : {}),
    });
  for (const l of run.lines) ctx.out(`${l.created ? 'created' : 'exists '}  ${l.kind}.${l.name}  ${l.id}`);
  for (const [name, value] of Object.entries(shown))
    ctx.out(`${name}=${value}   (shown once: the daemon keeps only its hash)`);
  if (opts.writeEnv && Object.keys(secrets).length)
    ctx.err(`wrote ${Object.keys(secrets).join(', ')} to ${opts.writeEnv} (mode 0600)`);
  const made = run.lines.filter((l) => l.created).length;
  ctx.err(
    made
      ? `seeded: ${made} made, ${run.lines.length - made} already there`
      : 'seeded: nothing to do, everything was there',
  );
}

export function devSeedCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('seed')
    .description('make the users, Companies, keys, agents, sessions and configured events of a JSON file (idempotent)')
    .argument('<file>')
    .option('--data <dir>', 'data folder of the local daemon')
    .option('--reset', 'empty the data folder first (restarting its daemon)')
    .option('--yes', 'with --reset: do not ask')
    .option('--write-env <file>', 'write new key secrets into this env file instead of printing them');
  return action(cmd, makeCtx, (ctx, flags, file: string) =>
    runSeed({ file, data: flags.data, reset: flags.reset, yes: flags.yes, writeEnv: flags.writeEnv }, ctx),
  );
}
