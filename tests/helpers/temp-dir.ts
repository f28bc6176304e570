import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

/** A fresh folder under the system temp folder, removed when the process exits. */
export function tempDir(label = 'svc-test'): string {
  const dir = mkdtempSync(join(tmpdir(), `${label}-`));
  made.push(dir);
  return dir;
}

process.on('exit', () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});
