/** Global flags that take a value in the next word (`--url X`, `--profile X`). */
const VALUE_FLAGS = new Set(['--url', '--profile']);

/**
 * A `--json` written before the command (`svc --json keys list`) is moved to the end, so that the
 * command's name is not read as `--json`'s optional list of fields.
 */
export function normalizeArgv(argv: string[]): string[] {
  const out: string[] = [];
  const moved: string[] = [];
  let seenCommand = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      out.push(...argv.slice(i));
      break;
    }
    if (!seenCommand && a === '--json') moved.push(a);
    else out.push(a);
    if (!seenCommand && VALUE_FLAGS.has(a)) out.push(argv[++i] ?? '');
    else if (!a.startsWith('-')) seenCommand = true;
  }
  return [...out, ...moved];
}

/** The first two words that are not flags (`svc --url X keys list --json` → keys, list): the noun and its verb. */
export function commandWords(argv: string[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < argv.length && words.length < 2; i++) {
    const a = argv[i]!;
    if (a === '--') break;
    if (VALUE_FLAGS.has(a)) i++;
    else if (!a.startsWith('-')) words.push(a);
  }
  return words;
}

/**
 * Which top-level commands to import: the one being run (`svc keys list` → keys), the one asked
 * about (`svc help keys`), or all of them for `svc completion`, which prints the whole tree.
 */
export function commandsToLoad(argv: string[]): Set<string> | '*' {
  const words = commandWords(argv);
  if (words[0] === 'completion' || words[0] === '__complete') return '*';
  if (words[0] === 'help') return new Set(words.slice(1));
  return new Set(words.slice(0, 1));
}
