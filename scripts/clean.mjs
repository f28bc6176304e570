// Empties dist/ before tsc: a source file that was deleted or renamed must not leave a stale build (and a stale test) behind.
import { rmSync } from 'node:fs';
rmSync(new URL('../dist/', import.meta.url), { recursive: true, force: true });
