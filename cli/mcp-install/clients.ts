import { join } from 'node:path';

export const MCP_CLIENTS = ['claude-desktop', 'claude-code', 'cursor', 'vscode'] as const;
export type McpClient = (typeof MCP_CLIENTS)[number];

/** Where a machine keeps things: injected so a test writes a temp home, never the developer's own. */
export interface Place {
  platform: NodeJS.Platform;
  home: string;
  env: Record<string, string | undefined>;
}

/** The key under which each client lists its servers, and whether an entry names its transport. */
export interface ClientFormat {
  label: string;
  /** The top-level key holding the servers by name. */
  key: 'mcpServers' | 'servers';
  /** Claude Code and VS Code write `"type": "stdio"`; Claude Desktop and Cursor infer it from `command`. */
  typed: boolean;
}

export const FORMATS: Record<McpClient, ClientFormat> = {
  'claude-desktop': { label: 'Claude Desktop', key: 'mcpServers', typed: false },
  'claude-code': { label: 'Claude Code (user scope)', key: 'mcpServers', typed: true },
  cursor: { label: 'Cursor (global)', key: 'mcpServers', typed: false },
  vscode: { label: 'VS Code (user mcp.json)', key: 'servers', typed: true },
};

/** The per-user application-data folder: Application Support on macOS, %APPDATA% on Windows, XDG on Linux. */
function appData(p: Place): string {
  if (p.platform === 'darwin') return join(p.home, 'Library', 'Application Support');
  if (p.platform === 'win32') return p.env.APPDATA ?? join(p.home, 'AppData', 'Roaming');
  return p.env.XDG_CONFIG_HOME || join(p.home, '.config');
}

/**
 * Each client's own user-level config file, as its documentation gives it: Claude Desktop's
 * claude_desktop_config.json, Claude Code's ~/.claude.json (user scope: the top-level
 * `mcpServers`), Cursor's ~/.cursor/mcp.json, VS Code's mcp.json in the user profile folder.
 */
export function configPathOf(client: McpClient, p: Place): string {
  switch (client) {
    case 'claude-desktop':
      return join(appData(p), 'Claude', 'claude_desktop_config.json');
    case 'claude-code':
      return join(p.home, '.claude.json');
    case 'cursor':
      return join(p.home, '.cursor', 'mcp.json');
    case 'vscode':
      return join(appData(p), 'Code', 'User', 'mcp.json');
  }
}

/** The server's name in the client: `svc`, or `svc-<profile>` so several profiles can sit side by side. */
export const entryNameOf = (profile: string) => (profile === 'default' ? 'svc' : `svc-${profile}`);

/**
 * The entry: the client starts `svc mcp` for the profile. No key, token or URL is written — the
 * relay reads the profile's keys from the keychain (or its 0600 file) each time it starts, so the
 * client's config file, which other tools read and people paste into issues, holds no secret.
 */
export function entryOf(client: McpClient, profile: string, node: string, bin: string): Record<string, unknown> {
  return {
    ...(FORMATS[client].typed ? { type: 'stdio' } : {}),
    command: node,
    args: [bin, 'mcp', '--profile', profile],
  };
}
