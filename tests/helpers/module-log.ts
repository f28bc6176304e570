import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'svc-module-log-'));
// A module hook that writes every resolved module URL to a file: the loaded graph, as Node saw it.
writeFileSync(
  join(dir, 'hooks.mjs'),
  `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(process.env.SVC_MODULE_LOG, result.url + '\\n');
  return result;
}\n`,
);
writeFileSync(
  join(dir, 'register.mjs'),
  `import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n`,
);

/**
 * The hook for a process the caller starts: Node flags and environment to start it with, and `read()`
 * for the module URLs it has loaded so far, in order (ES modules: what `import` loads, not `require`).
 */
export function moduleLog(name: string): { args: string[]; env: Record<string, string>; read(): string[] } {
  const log = join(dir, `${name}.log`);
  writeFileSync(log, '');
  return {
    args: ['--import', join(dir, 'register.mjs')],
    env: { SVC_MODULE_LOG: log },
    read: () => readFileSync(log, 'utf8').split('\n').filter(Boolean),
  };
}

/**
 * Runs `node <args>` with the hook (an unreachable SVC_URL, temp config and data folders, no
 * keychain unless `env` says otherwise) and returns the module URLs it loaded, in order.
 */
export function loadedModules(name: string, args: string[], env: Record<string, string> = {}): string[] {
  const hook = moduleLog(name);
  spawnSync(process.execPath, [...hook.args, ...args], {
    env: {
      ...process.env,
      ...hook.env,
      SVC_CONFIG_DIR: join(dir, 'config'),
      SVC_DATA_DIR: join(dir, 'data'),
      SVC_URL: 'http://127.0.0.1:9',
      SVC_KEYCHAIN: 'off',
      ...env,
    },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return hook.read();
}
