import type { Command as Commander } from 'commander';
import { Command } from './command-spec.js';
import type { ContextFactory } from './command.js';
import type { CliIO } from './context.js';
import { parseFast } from './fast-parse.js';

/** The program's own description and global flags, recorded (command-spec.ts) for both paths. */
function programSpec(version: string): Command {
  return new Command('svc')
    .description('svc: log in, manage access keys, follow events and relay MCP for the agent platform')
    .version(version, '-v, --version')
    .option('--json [fields]', 'print machine-readable JSON (optionally only these comma-separated fields)')
    .option('--url <url>', 'platform URL (default $SVC_URL, the profile, a local daemon, or http://127.0.0.1:7878)')
    .option('--profile <name>', 'the profile to use (default $SVC_PROFILE, else the one chosen with svc profile use)')
    .showHelpAfterError('(run with --help for usage)');
}

/**
 * Runs a plainly well-formed command line without commander (fast-parse.ts): imports only the
 * command named by `words` (argv.ts commandWords) and its verb. False when the line needs commander (help, a usage error, anything
 * unusual): nothing has run then, and main.ts hands the line to commander.
 */
export async function runWithoutCommander(
  argv: string[],
  [noun, verb]: string[],
  makeCtx: ContextFactory,
  version: string,
): Promise<boolean> {
  const { loadNamedCommand } = await import('./commands/index.js');
  const cmd = await loadNamedCommand(makeCtx, noun, verb);
  const parsed = cmd && parseFast(programSpec(version).addCommand(cmd), argv);
  if (!parsed) return false;
  await parsed.leaf.handler!(...parsed.params);
  return true;
}

/**
 * Builds the commander program: global flags, then the commands from cli/commands/ (`load`: which
 * to import in full; the rest are names and descriptions only, so a command loads only what it runs).
 */
export async function buildProgram(
  makeCtx: ContextFactory,
  io: CliIO,
  version: string,
  load: Set<string> | '*' = '*',
): Promise<Commander> {
  const [{ toCommander }, { registerCommands }, { restyleUsageError }] = await Promise.all([
    import('./command-tree.js'),
    import('./commands/index.js'),
    import('./usage-errors.js'),
  ]);
  const spec = programSpec(version);
  await registerCommands(spec, makeCtx, load);
  const program = toCommander(spec);
  // Every command, the program included, writes to the CLI's streams and throws instead of exiting.
  const configure = (cmd: Commander) => {
    cmd.exitOverride().configureOutput({
      writeOut: (s) => void io.stdout.write(s),
      writeErr: (s) => void io.stderr.write(s),
      outputError: (s, write) => write(restyleUsageError(s, cmd)),
    });
    cmd.commands.forEach(configure);
  };
  configure(program);
  return program;
}
