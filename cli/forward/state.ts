import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What one forward (a profile, a Company, a target URL) keeps between runs, in the CLI's config
 * folder (mode 0600): its signing secret, made once and printed once, and the id of the last event
 * it handed over, from which the next run resumes.
 */
export interface ForwardState {
  profile: string;
  company: string;
  to: string;
  secret: string;
  cursor: string | null;
}

const fileOf = (configDir: string, key: Omit<ForwardState, 'secret' | 'cursor'>) =>
  join(
    configDir,
    'forward',
    `${createHash('sha256').update(`${key.profile}\n${key.company}\n${key.to}`).digest('hex').slice(0, 24)}.json`,
  );

/** The forward's state, made (with a fresh `whsec_` secret) on first use; `fresh` says so, and only then is the secret shown. */
export function openForwardState(
  configDir: string,
  key: Omit<ForwardState, 'secret' | 'cursor'>,
): { state: ForwardState; fresh: boolean; save(): void } {
  const file = fileOf(configDir, key);
  let state: ForwardState | null = null;
  try {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as ForwardState;
    if (typeof saved.secret === 'string' && saved.secret.startsWith('whsec_')) state = saved;
  } catch {
    state = null;
  }
  const fresh = state === null;
  const s: ForwardState = state ?? { ...key, secret: `whsec_${randomBytes(24).toString('base64url')}`, cursor: null };
  const save = () => {
    mkdirSync(join(configDir, 'forward'), { recursive: true, mode: 0o700 });
    writeFileSync(`${file}.tmp`, JSON.stringify(s, null, 2) + '\n', { mode: 0o600 });
    renameSync(`${file}.tmp`, file);
  };
  if (fresh) save();
  return { state: s, fresh, save };
}
