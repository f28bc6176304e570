import { resolve } from 'node:path';
import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { readProfiles, setCurrentProfile, validProfileName, writeProfile, type Profile } from '../../profiles.js';

export interface ProfileAddOptions {
  name: string;
  url?: string;
  data?: string;
  use?: boolean;
}

/**
 * `svc profile add <name> --url <url>` (a platform elsewhere) or `--data <dir>` (a local daemon,
 * found through its data folder whatever port it listens on; its operator token is read there too).
 */
export async function runProfileAdd(opts: ProfileAddOptions, ctx: CliContext): Promise<void> {
  if (!validProfileName(opts.name))
    throw new UsageError(`invalid profile name '${opts.name}'`, 'use letters, digits, . _ - (up to 64)');
  if (Boolean(opts.url) === Boolean(opts.data)) throw new UsageError('give one of --url <url> or --data <dir>');
  const profile: Profile = opts.url ? { url: checkedUrl(opts.url) } : { data_dir: resolve(opts.data!) };
  const existing = readProfiles(ctx.config())[opts.name];
  // Adding the same profile again is fine (the daemon banner prints this command on every start).
  if (
    existing &&
    (existing.url || existing.data_dir) &&
    (existing.url !== profile.url || existing.data_dir !== profile.data_dir)
  ) {
    throw new UsageError(
      `profile '${opts.name}' exists already, with other settings`,
      `remove it first with 'svc profile remove ${opts.name}', or choose another name`,
    );
  }
  writeProfile(ctx.config(), opts.name, profile);
  if (opts.use) setCurrentProfile(ctx.config(), opts.name);
  if (ctx.json) return ctx.printJson({ ok: true, name: opts.name, ...profile, current: Boolean(opts.use) });
  ctx.out(`Added profile ${opts.name}: ${profile.url ?? `the local daemon of ${profile.data_dir}`}.`);
  ctx.err(
    opts.use
      ? `It is now the current profile; log in with 'svc login'.`
      : `Use it with --profile ${opts.name}, SVC_PROFILE=${opts.name}, or 'svc profile use ${opts.name}'.`,
  );
}

function checkedUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`--url ${raw} is not a URL`, 'e.g. --url https://svc.example.com');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--url must be http:// or https://, not ${url.protocol}`);
  return raw.replace(/\/+$/, '');
}

export function profileAddCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('add')
    .description('add a profile: a platform URL, or the data folder of a local daemon')
    .argument('<name>', 'the profile name')
    .option('--url <url>', 'the platform URL')
    .option('--data <dir>', 'the data folder of a local daemon (its URL and operator token are read there)')
    .option('--use', 'make it the current profile');
  return action(cmd, makeCtx, (ctx, flags, name: string) =>
    runProfileAdd({ name, url: flags.url, data: flags.data, use: flags.use }, ctx),
  );
}
