import { fileURLToPath } from 'node:url';

/**
 * The `svc` bin's path, for commands that start the CLI again (a background `svc daemon start`).
 * Written as ../cli/main.js so it holds both from tsc's dist/cli/self.js and from a bundled chunk
 * in dist/cli-chunks/ (scripts/build-cli.mjs), which sits at the same depth.
 */
export const CLI_MAIN = fileURLToPath(new URL('../cli/main.js', import.meta.url));

/** The `svc` bin itself (the CommonJS launcher beside main.js): what an MCP client's config runs. */
export const CLI_BIN = fileURLToPath(new URL('../cli/svc.cjs', import.meta.url));
