import { homedir } from 'node:os';
import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { CLI_BIN } from '../../self.js';
import {
  configPathOf,
  entryNameOf,
  entryOf,
  FORMATS,
  MCP_CLIENTS,
  type McpClient,
  type Place,
} from '../../mcp-install/clients.js';
import { readConfigJson, writeConfigJson } from '../../mcp-install/config-json.js';

export interface InstallOptions {
  client: string;
  print?: boolean;
  /** Tests: where the config files are (default: this machine's). */
  place?: Place;
  /** Tests: the node binary and the svc bin the entry runs. */
  node?: string;
  bin?: string;
}

export function clientOf(name: string): McpClient {
  if (!(MCP_CLIENTS as readonly string[]).includes(name))
    throw new UsageError(`unknown client '${name}': use one of ${MCP_CLIENTS.join(', ')}`);
  return name as McpClient;
}

export const placeOf = (ctx: CliContext, place?: Place): Place =>
  place ?? { platform: process.platform, home: ctx.env.HOME || ctx.env.USERPROFILE || homedir(), env: ctx.env };

const stampOf = (ctx: CliContext) => new Date(ctx.now()).toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');

/**
 * `svc mcp install --client C [--profile P] [--print]`: adds (or updates) svc's entry in the
 * client's own config file, keeping every other entry and setting; the old file is backed up first.
 */
export async function runInstall(opts: InstallOptions, ctx: CliContext): Promise<void> {
  const client = clientOf(opts.client);
  const profile = ctx.profile.name;
  const name = entryNameOf(profile);
  const entry = entryOf(client, profile, opts.node ?? process.execPath, opts.bin ?? CLI_BIN);
  const { key, label } = FORMATS[client];
  const file = configPathOf(client, placeOf(ctx, opts.place));
  if (opts.print) {
    const snippet = { [key]: { [name]: entry } };
    if (ctx.json) return ctx.printJson({ file, entry: snippet });
    ctx.err(`add this to ${file}:`);
    ctx.out(JSON.stringify(snippet, null, 2));
    return;
  }
  const config = readConfigJson(file);
  const servers = config[key];
  if (servers !== undefined && (typeof servers !== 'object' || servers === null || Array.isArray(servers)))
    throw new UsageError(`${file}: "${key}" is not an object; it was left as it is`);
  const had = Boolean(servers && Object.hasOwn(servers, name));
  config[key] = { ...(servers as Record<string, unknown> | undefined), [name]: entry };
  const backup = writeConfigJson(file, config, stampOf(ctx));
  if (ctx.json) return ctx.printJson({ ok: true, client, file, name, updated: had, backup });
  ctx.out(`${had ? 'updated' : 'added'} '${name}' in ${label}: ${file}`);
  if (backup) ctx.err(`the previous file is kept as ${backup}`);
  ctx.err(
    `restart ${label.replace(/ \(.*$/, '')} to load it; it runs 'svc mcp --profile ${profile}' with that profile's stored keys`,
  );
}

export function installCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('install')
    .description(`write svc into an MCP client's config (${MCP_CLIENTS.join(', ')}); no secret is written`)
    .requiredOption('--client <name>', MCP_CLIENTS.join(' | '))
    .option('--print', 'print the entry instead of writing the file');
  return action(cmd, makeCtx, (ctx, flags) => runInstall({ client: flags.client, print: flags.print }, ctx));
}
