import { readFileSync } from 'node:fs';

/** The repository's root, from the built test's place (dist/tests/helpers/). */
export const REPO_ROOT = new URL('../../../', import.meta.url);

/** One `svc …` command as a document shows it: where, the line as written, and its words. */
export interface DocCommand {
  file: string;
  line: number;
  text: string;
  argv: string[];
}

/**
 * Splits a shell line into words the way sh would for the plain lines documents show: single and
 * double quotes, backslash escapes, `# comment` after a blank. Returns the words and, split at
 * `&&`, `;` and `|`, the separate commands; `$(…)` is unwrapped (`eval "$(svc completion bash)"`).
 */
export function shellCommands(line: string): string[][] {
  const commands: string[][] = [[]];
  let word: string | null = null;
  let quote: '"' | "'" | null = null;
  const push = () => {
    if (word !== null) commands.at(-1)!.push(word);
    word = null;
  };
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote) {
      if (ch === quote) quote = null;
      else if (ch === '\\' && quote === '"' && i + 1 < line.length) word += line[++i]!;
      else word += ch;
      continue;
    }
    if (ch === "'" || ch === '"') {
      quote = ch;
      word ??= '';
    } else if (ch === '\\' && i + 1 < line.length) {
      word = (word ?? '') + line[++i]!;
    } else if (ch === ' ' || ch === '\t') push();
    else if (ch === '#' && word === null) break;
    else if (ch === '&' || ch === ';' || ch === '|') {
      push();
      if (line[i + 1] === ch) i++;
      commands.push([]);
    } else word = (word ?? '') + ch;
  }
  push();
  return commands.flatMap((words) => {
    // `eval "$(svc completion bash)"`: the substitution is the command.
    const inner = words.map((w) => /^\$\((.*)\)$/.exec(w)?.[1]).find(Boolean);
    if (inner) return shellCommands(inner);
    // A redirection (`> file`, `2>&1`) is the shell's, not the command's; `<id>` is a placeholder.
    const kept: string[] = [];
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!;
      if (/^\d?[<>]{1,2}$/.test(w)) i++;
      else if (/^<[^<>]+>$/.test(w) || !/^\d?[<>]/.test(w)) kept.push(w);
    }
    return [kept];
  });
}

/**
 * Every `svc …` command in the fenced `console` (or `sh`, `bash`) blocks of a Markdown file, a
 * trailing `\` joining lines. Words before `svc` that set the environment (`SVC_WALLET_KEY=… svc`)
 * are dropped; `npm`, `node`, `echo` and the like are not svc commands and are skipped.
 */
export function svcCommandsIn(file: string): DocCommand[] {
  const lines = readFileSync(new URL(file, REPO_ROOT), 'utf8').split('\n');
  const found: DocCommand[] = [];
  let inBlock = false;
  for (let i = 0; i < lines.length; i++) {
    const fence = /^\s*```(\w*)/.exec(lines[i]!);
    if (fence) {
      inBlock = !inBlock && ['console', 'sh', 'bash', 'shell'].includes(fence[1]!);
      continue;
    }
    if (!inBlock) continue;
    // In a block that shows prompts (`$ svc …`, `ana$ svc …`), the other lines are the output.
    if (prompted(lines, i) && !PROMPT.test(lines[i]!)) continue;
    const start = i;
    let text = lines[i]!.replace(PROMPT, '');
    while (text.endsWith('\\') && i + 1 < lines.length) text = `${text.slice(0, -1)} ${lines[++i]!.trim()}`;
    text = synopsisAsExample(text);
    for (const words of shellCommands(text)) {
      const at = words.findIndex((w) => !/^[A-Z_][A-Z0-9_]*=/.test(w));
      if (words[at] === 'svc') found.push({ file, line: start + 1, text: text.trim(), argv: words.slice(at + 1) });
    }
  }
  return found;
}

/** A shell prompt before a command: `$ ` or a user's (`ana$ `). */
const PROMPT = /^\w*\$\s+/;

/** Whether the fenced block around line `at` marks its commands with a `$ ` prompt. */
function prompted(lines: string[], at: number): boolean {
  let first = at;
  while (first > 0 && !/^\s*```/.test(lines[first - 1]!)) first--;
  for (let i = first; i < lines.length && !/^\s*```/.test(lines[i]!); i++) if (PROMPT.test(lines[i]!)) return true;
  return false;
}

/**
 * A synopsis line (`svc audit list [--since T] [--code C | --password-stdin] [same filters]`) as
 * one example: an optional flag group is taken (its first alternative), a group of words dropped.
 */
function synopsisAsExample(text: string): string {
  return text.replace(/\[(-[^[\]"'{}]*|[a-z ]+)\]/g, (_, inner: string) =>
    inner.startsWith('-') ? inner.split(' | ')[0]! : '',
  );
}
