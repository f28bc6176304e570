import type { ActionCommand, Command, FlagSpec, OptionValues } from './command-spec.js';

/** A command line read without commander: the command to run and what its action is called with. */
export interface FastParse {
  leaf: Command;
  /** The action's arguments, as commander passes them: the declared arguments, the flags, the command. */
  params: unknown[];
}

/**
 * Reads a plainly well-formed command line the way commander would, or answers null and leaves it
 * to commander. It accepts only: command words that name a subcommand; `--flag`, `--flag value`
 * and declared short flags, each once, defined on the command reached so far or above it; as many
 * arguments as declared (no variadic ones). Anything else (`--help`, `-v`, `--`, `--flag=value`,
 * an unknown or repeated flag, a flag with a custom parser or `--no-`, a missing value, argument or
 * mandatory flag, a group without its verb, `help`) goes to commander, so that every message,
 * help text and exit code is commander's own. Global flags are recognized anywhere, as commander
 * does (no positional options).
 */
export function parseFast(root: Command, argv: string[]): FastParse | null {
  let cmd = root;
  const given = new Map<Command, OptionValues>([[root, {}]]);
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word.startsWith('-') && word.length > 1) {
      if (word === '--' || word.includes('=')) return null;
      const found = findFlag(cmd, word);
      if (!found) return null;
      const [owner, flag] = found;
      const values = given.get(owner)!;
      if (flag.special || flag.key in values) return null;
      const next = argv[i + 1];
      const nextIsValue = next !== undefined && !(next.startsWith('-') && next.length > 1);
      if (!flag.takesValue) values[flag.key] = true;
      else if (nextIsValue) values[flag.key] = argv[++i];
      else if (flag.optionalValue) values[flag.key] = true;
      else return null;
      continue;
    }
    if (cmd.subcommands.length > 0 && positional.length === 0) {
      const sub = cmd.subcommands.find((c) => c.commandName === word);
      if (!sub) return null;
      cmd = sub;
      given.set(cmd, {});
      continue;
    }
    positional.push(word);
  }
  if (cmd.subcommands.length > 0 || !cmd.handler) return null;
  const required = cmd.args.filter((a) => a.required).length;
  if (cmd.args.some((a) => a.variadic) || positional.length < required || positional.length > cmd.args.length)
    return null;
  const chain: Command[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) chain.push(c);
  const opts = chain.map((c) => withDefaults(c, given.get(c) ?? {}));
  if (opts.includes(null)) return null;
  const local = opts[0]!;
  // commander's optsWithGlobals: the command's flags, then each parent's assigned over them.
  const merged = Object.assign({}, ...opts) as OptionValues;
  const self: ActionCommand = { opts: () => local, optsWithGlobals: () => merged };
  const args = cmd.args.map((_, n) => positional[n]);
  return { leaf: cmd, params: [...args, local, self] };
}

/** The flag a word names on this command or a parent (nearest first); null when two levels define it. */
function findFlag(cmd: Command, word: string): [Command, FlagSpec] | null {
  let found: [Command, FlagSpec] | null = null;
  for (let c: Command | null = cmd; c; c = c.parent) {
    const flag = c.flags.find((f) => f.long === word || f.short === word);
    if (flag && found) return null;
    if (flag) found = [c, flag];
  }
  return found;
}

/** A command's flag values with its defaults filled in; null when a mandatory flag is missing. */
function withDefaults(cmd: Command, values: OptionValues): OptionValues | null {
  const out: OptionValues = {};
  for (const flag of cmd.flags) {
    if (flag.key in values) out[flag.key] = values[flag.key];
    else if (flag.mandatory) return null;
    else if (flag.defaultValue !== undefined) out[flag.key] = flag.defaultValue;
  }
  return out;
}
