import type { Command as Commander } from 'commander';

/** Verbs people reach for, and the ones svc has instead (the first that exists where they typed it wins). */
const SYNONYMS: Record<string, string[]> = {
  delete: ['revoke', 'remove'],
  del: ['delete', 'revoke', 'remove'],
  rm: ['delete', 'remove', 'revoke'],
  remove: ['delete', 'revoke'],
  revoke: ['delete', 'remove'],
  ls: ['list'],
  show: ['list', 'status'],
  new: ['create', 'add'],
  add: ['create'],
  create: ['add'],
  switch: ['use'],
  select: ['use'],
  info: ['status', 'whoami'],
};

/** `svc keys` for the keys command: what a user types to reach it. */
function commandPath(cmd: Commander): string {
  const names: string[] = [];
  for (let c: Commander | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/**
 * Commander's own usage errors in svc's style: `svc: <what>` on one line, then a `hint:` line
 * naming the whole command to type instead, found by spelling (commander's guess) or by meaning
 * (`delete` where svc says `revoke`).
 */
export function restyleUsageError(text: string, cmd: Commander): string {
  const unknown = /unknown command '([^']+)'/.exec(text)?.[1];
  const spelled = /\(Did you mean ([^?]+)\?\)/.exec(text)?.[1];
  const names = cmd.commands.map((c) => c.name());
  const guess = spelled ?? (unknown ? SYNONYMS[unknown]?.find((n) => names.includes(n)) : undefined);
  const message = text
    .replace(/\n?\(Did you mean [^?]+\?\)/, '')
    .replace(/^error: /, 'svc: ')
    .trimEnd();
  return `${message}\n${guess ? `hint: did you mean '${commandPath(cmd)} ${guess}'?\n` : ''}`;
}
