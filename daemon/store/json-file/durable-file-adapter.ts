import { open, readFile, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Adapter } from 'lowdb';

/**
 * A lowdb adapter whose writes survive a crash at any instant: write a temp file, fsync it,
 * rename it over the real one, then fsync the folder so the rename itself is durable.
 * A reader therefore always sees the old file or the new one, never half of one.
 */
export class DurableJsonFile<T> implements Adapter<T> {
  constructor(private readonly file: string) {}

  async read(): Promise<T | null> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    try {
      return JSON.parse(text) as T;
    } catch {
      // Renames are atomic, so this is damage from outside svc; refuse rather than start empty and overwrite it.
      throw new Error(
        `data file ${this.file} is not valid JSON; restore it from a backup or move it away to start empty`,
      );
    }
  }

  async write(data: T): Promise<void> {
    const tmp = join(dirname(this.file), `.${basename(this.file)}.${process.pid}.tmp`);
    const handle = await open(tmp, 'w', 0o600);
    try {
      await handle.writeFile(JSON.stringify(data));
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await rename(tmp, this.file);
    } catch (err) {
      await unlink(tmp).catch(() => {});
      throw err;
    }
    await syncFolder(dirname(this.file));
  }
}

async function syncFolder(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } catch {
    // Some file systems refuse fsync on a folder; the rename is still atomic there.
  } finally {
    await handle.close();
  }
}
