import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createFakeCli, type FakeCli } from './cli.js';
import { createTestApp, serveTestApp, type TestApp, type TestAppOptions } from './test-app.js';
import { tempDir } from './temp-dir.js';

/**
 * A served in-process daemon (fake clock, temp data folder) and a fake CLI whose data folder holds
 * its operator token, as a local daemon's would: what `svc dev …` commands run against.
 */
export async function devLoopSetUp(options: TestAppOptions & { json?: boolean; stdin?: string } = {}) {
  const t = await createTestApp(options);
  const served = await serveTestApp(t);
  const cli = createFakeCli({ url: served.url, json: options.json, stdin: options.stdin });
  writeFileSync(join(cli.ctx.env.SVC_DATA_DIR!, 'operator-token'), t.deps.secrets.operatorToken + '\n', {
    mode: 0o600,
  });
  const again = (more: { json?: boolean; stdin?: string } = {}): FakeCli =>
    createFakeCli({ url: served.url, env: cli.ctx.env, ...more });
  return {
    t,
    cli,
    url: served.url,
    /** Another CLI run on the same folders (fresh captured output). */
    again,
    async close() {
      await served.close();
      await t.close();
    },
  };
}

/** Writes a JSON file in a temp folder and returns its path. */
export function jsonFile(value: unknown, name = 'seed.json'): string {
  const file = join(tempDir('svc-dev-file'), name);
  writeFileSync(file, JSON.stringify(value, null, 2));
  return file;
}

export type DevLoop = Awaited<ReturnType<typeof devLoopSetUp>>;
export type { TestApp };
