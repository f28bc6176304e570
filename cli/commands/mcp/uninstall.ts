import { existsSync } from 'node:fs';
import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { configPathOf, entryNameOf, FORMATS, MCP_CLIENTS, type Place } from '../../mcp-install/clients.js';
import { readConfigJson, writeConfigJson } from '../../mcp-install/config-json.js';
import { clientOf, placeOf } from './install.js';

/** `svc mcp uninstall --client C [--profile P]`: removes svc's entry (backing the file up first); the rest stays. */
export async function runUninstall(opts: { client: string; place?: Place }, ctx: CliContext): Promise<void> {
  const client = clientOf(opts.client);
  const name = entryNameOf(ctx.profile.name);
  const { key, label } = FORMATS[client];
  const file = configPathOf(client, placeOf(ctx, opts.place));
  const config = existsSync(file) ? readConfigJson(file) : {};
  const servers = config[key] as Record<string, unknown> | undefined;
  if (!servers || typeof servers !== 'object' || !Object.hasOwn(servers, name)) {
    if (ctx.json) return ctx.printJson({ ok: true, client, file, name, removed: false });
    ctx.err(`no '${name}' entry in ${file}; nothing to remove`);
    return;
  }
  const { [name]: _gone, ...rest } = servers;
  config[key] = rest;
  const stamp = new Date(ctx.now()).toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
  const backup = writeConfigJson(file, config, stamp);
  if (ctx.json) return ctx.printJson({ ok: true, client, file, name, removed: true, backup });
  ctx.out(`removed '${name}' from ${label}: ${file}`);
  if (backup) ctx.err(`the previous file is kept as ${backup}`);
}

export function uninstallCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('uninstall')
    .description("remove svc from an MCP client's config")
    .requiredOption('--client <name>', MCP_CLIENTS.join(' | '));
  return action(cmd, makeCtx, (ctx, flags) => runUninstall({ client: flags.client }, ctx));
}
