import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Non-secret CLI settings (`config.json` in the config folder), e.g. the current Company per daemon URL. */
export interface ConfigFile {
  get<T = unknown>(key: string): T | undefined;
  set(key: string, value: unknown): void;
  delete(key: string): void;
}

export function createConfigFile(configDir: string): ConfigFile {
  const file = join(configDir, 'config.json');
  const read = (): Record<string, unknown> => {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    } catch {
      return {};
    }
  };
  const write = (data: Record<string, unknown>) => {
    mkdirSync(configDir, { recursive: true, mode: 0o700 });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(data, null, 2) + '\n', { mode: 0o600 });
    renameSync(tmp, file);
  };
  return {
    get: <T>(key: string) => read()[key] as T | undefined,
    set: (key, value) => write({ ...read(), [key]: value }),
    delete: (key) => {
      const data = read();
      delete data[key];
      write(data);
    },
  };
}
