/**
 * A command as its module declares it, with the same fluent calls as commander's (`description`,
 * `option`, `argument`, `action`, …), recorded instead of run. Why: commander costs ~10 ms of CPU to
 * load on every start, more than the rest of `svc keys list`. The recorded calls are replayed onto
 * real commander objects (command-tree.ts) whenever commander is needed: help, completion, any
 * usage error, any argv the fast parser (fast-parse.ts) is not sure about, so help texts, errors and
 * exit codes stay commander's own. Only a plainly well-formed command line runs without it.
 */
export type Call = [method: string, args: unknown[]];

/** What commander hands an action: the parsed flags (`Record<string, any>` in commander's own types). */
// biome-ignore lint/suspicious/noExplicitAny: each command reads the flags it declared, as with commander's OptionValues.
export type OptionValues = Record<string, any>;

/** The commander object an action receives last; the fast path passes one with the same two methods. */
export interface ActionCommand {
  opts(): OptionValues;
  optsWithGlobals(): OptionValues;
}

export type ActionHandler = (...params: unknown[]) => unknown;

/** One flag as commander reads it (its splitOptionFlags and attributeName, for the forms used here). */
export interface FlagSpec {
  short?: string;
  long?: string;
  /** The key in the parsed flags: `--password-stdin` → passwordStdin. */
  key: string;
  takesValue: boolean;
  /** `[value]`: the next word is taken only if it does not look like a flag. */
  optionalValue: boolean;
  mandatory: boolean;
  defaultValue?: unknown;
  /** Forms the fast parser leaves to commander: a custom parser, `--no-x`, `<values...>`. */
  special: boolean;
}

export interface ArgSpec {
  required: boolean;
  variadic: boolean;
}

export function parseFlags(flags: string, mandatory: boolean, parserOrDefault?: unknown, defaultValue?: unknown) {
  const parts = flags.split(/[ |,]+/);
  const short = /^-[^-]$/.test(parts[0] ?? '') ? parts.shift() : undefined;
  const long = /^--[^-]/.test(parts[0] ?? '') ? parts.shift() : undefined;
  const name = (long ?? short ?? '').replace(/^--?/, '');
  const negate = Boolean(long?.startsWith('--no-'));
  const key = name
    .replace(/^no-/, '')
    .split('-')
    .reduce((s, w) => s + w[0]!.toUpperCase() + w.slice(1));
  const parser = typeof parserOrDefault === 'function';
  const spec: FlagSpec = {
    short,
    long,
    key,
    takesValue: flags.includes('<') || flags.includes('['),
    optionalValue: flags.includes('[') && !flags.includes('<'),
    mandatory,
    // commander gives `--no-x` (with no `--x` beside it, as here) the default true.
    defaultValue: (parser ? defaultValue : parserOrDefault) ?? (negate ? true : undefined),
    special: parser || negate || /\.\.\.[>\]]/.test(flags),
  };
  return spec;
}

/** A hidden or otherwise configured option, for `addOption`. */
export class Option {
  readonly calls: Call[] = [];
  constructor(
    readonly flags: string,
    readonly text?: string,
  ) {}
  hideHelp(hide = true): this {
    this.calls.push(['hideHelp', [hide]]);
    return this;
  }
}

export class Command {
  readonly calls: Call[] = [];
  readonly subcommands: Command[] = [];
  readonly flags: FlagSpec[] = [];
  readonly args: ArgSpec[] = [];
  handler?: ActionHandler;
  parent: Command | null = null;
  constructor(readonly commandName: string) {}

  private record(method: string, args: unknown[]): this {
    this.calls.push([method, args]);
    return this;
  }
  description(text: string): this {
    return this.record('description', [text]);
  }
  // Rest parameters: commander is handed exactly the arguments the module wrote, no trailing undefined.
  option(flags: string, ...rest: [text?: string, parserOrDefault?: unknown, defaultValue?: unknown]): this {
    this.flags.push(parseFlags(flags, false, rest[1], rest[2]));
    return this.record('option', [flags, ...rest]);
  }
  requiredOption(flags: string, ...rest: [text?: string, parserOrDefault?: unknown, defaultValue?: unknown]): this {
    this.flags.push(parseFlags(flags, true, rest[1], rest[2]));
    return this.record('requiredOption', [flags, ...rest]);
  }
  addOption(option: Option): this {
    this.flags.push(parseFlags(option.flags, false));
    return this.record('addOption', [option]);
  }
  argument(name: string, ...text: [text?: string]): this {
    this.args.push({ required: name.startsWith('<'), variadic: /\.\.\.[>\]]$/.test(name) });
    return this.record('argument', [name, ...text]);
  }
  addCommand(cmd: Command): this {
    cmd.parent = this;
    this.subcommands.push(cmd);
    return this.record('addCommand', [cmd]);
  }
  addHelpText(position: 'before' | 'after' | 'beforeAll' | 'afterAll', text: string): this {
    return this.record('addHelpText', [position, text]);
  }
  version(text: string, flags: string): this {
    return this.record('version', [text, flags]);
  }
  showHelpAfterError(message: string): this {
    return this.record('showHelpAfterError', [message]);
  }
  action(handler: ActionHandler): this {
    this.handler = handler;
    return this.record('action', [handler]);
  }
}
