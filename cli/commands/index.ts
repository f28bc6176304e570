import { Command } from '../command-spec.js';
import type { ContextFactory } from '../command.js';

type Build = (makeCtx: ContextFactory) => Promise<Command>;
/** A noun's verbs by name (the name each module gives its command), each loadable alone. */
type Verbs = Record<string, Build>;

/** One top-level command: its name and one-line description, and how to load it (only when run). */
interface Entry {
  name: string;
  description: string;
  load: Build;
  verbs?: Verbs;
}

/** A noun with verbs: each verb is its own module, imported only when the noun is run. */
const group =
  (name: string, description: string, verbs: Verbs): Build =>
  async (m) => {
    const cmd = new Command(name).description(description);
    for (const sub of await Promise.all(Object.values(verbs).map((v) => v(m)))) cmd.addCommand(sub);
    return cmd;
  };
const entry = (name: string, description: string, load: Build | Verbs): Entry =>
  typeof load === 'function'
    ? { name, description, load }
    : { name, description, load: group(name, description, load), verbs: load };

/**
 * Every command, grouped by noun. A command's file is cli/commands/<noun>/<verb>.ts. Nothing here
 * imports a command module at start: `svc --version` and `svc keys list` load only what they run
 * (ethers, siwe, Ink and the MCP SDK stay unloaded unless the command needs them).
 */
export const ENTRIES: Entry[] = [
  // your account
  entry('signup', 'create an account (asks for what is missing; e-mails a code to verify)', async (m) =>
    (await import('./auth/signup.js')).signupCommand(m),
  ),
  entry('verify', 'confirm your e-mail address with the 6-digit code', async (m) =>
    (await import('./auth/verify.js')).verifyCommand(m),
  ),
  entry(
    'login',
    'log in: e-mail and password (default), an e-mailed code (--email-code) or a wallet (--wallet)',
    async (m) => (await import('./auth/login.js')).loginCommand(m),
  ),
  entry('logout', 'end this login on the server and forget it locally', async (m) =>
    (await import('./auth/logout.js')).logoutCommand(m),
  ),
  entry('whoami', 'show the account you are logged in as', async (m) =>
    (await import('./auth/whoami.js')).whoamiCommand(m),
  ),
  entry('auth', 'your stored logins: status of every profile, print the token', {
    status: async (m) => (await import('./auth/status.js')).authStatusCommand(m),
    token: async (m) => (await import('./auth/token.js')).authTokenCommand(m),
  }),
  entry('profile', 'named profiles: a platform URL or a local data folder, each with its own login', {
    add: async (m) => (await import('./profile/add.js')).profileAddCommand(m),
    use: async (m) => (await import('./profile/use.js')).profileUseCommand(m),
    list: async (m) => (await import('./profile/list.js')).profileListCommand(m),
    remove: async (m) => (await import('./profile/remove.js')).profileRemoveCommand(m),
  }),
  entry('sessions', 'list and end your login sessions', {
    list: async (m) => (await import('./sessions/list.js')).sessionsListCommand(m),
    revoke: async (m) => (await import('./sessions/revoke.js')).sessionsRevokeCommand(m),
    'revoke-others': async (m) => (await import('./sessions/revoke-others.js')).sessionsRevokeOthersCommand(m),
  }),
  entry('password', 'change, forget or reset your password', {
    change: async (m) => (await import('./password/change.js')).passwordChangeCommand(m),
    forgot: async (m) => (await import('./password/forgot.js')).passwordForgotCommand(m),
    reset: async (m) => (await import('./password/reset.js')).passwordResetCommand(m),
  }),
  entry('totp', 'two-factor authentication with an authenticator app', {
    enable: async (m) => (await import('./totp/enable.js')).totpEnableCommand(m),
    disable: async (m) => (await import('./totp/disable.js')).totpDisableCommand(m),
    status: async (m) => (await import('./totp/status.js')).totpStatusCommand(m),
  }),
  entry('passkeys', 'the passkeys on your account (add them from a browser)', {
    list: async (m) => (await import('./passkeys/list.js')).passkeysListCommand(m),
    delete: async (m) => (await import('./passkeys/delete.js')).passkeysDeleteCommand(m),
  }),
  // Companies and keys
  entry('companies', 'your Companies: create, list, choose the current one, delete; members and invitations', {
    create: async (m) => (await import('./companies/create.js')).companiesCreateCommand(m),
    list: async (m) => (await import('./companies/list.js')).companiesListCommand(m),
    use: async (m) => (await import('./companies/use.js')).companiesUseCommand(m),
    members: async (m) => (await import('./companies/members.js')).companiesMembersCommand(m),
    invite: async (m) => (await import('./companies/invite.js')).companiesInviteCommand(m),
    join: async (m) => (await import('./companies/join.js')).companiesJoinCommand(m),
    role: async (m) => (await import('./companies/role.js')).companiesRoleCommand(m),
    remove: async (m) => (await import('./companies/remove.js')).companiesRemoveCommand(m),
    leave: async (m) => (await import('./companies/leave.js')).companiesLeaveCommand(m),
    transfer: async (m) => (await import('./companies/transfer.js')).companiesTransferCommand(m),
    delete: async (m) => (await import('./companies/delete.js')).companiesDeleteCommand(m),
  }),
  entry('keys', 'secret keys (sk_) for MCP clients and scripts', {
    create: async (m) => (await import('./keys/create.js')).keysCreateCommand(m),
    list: async (m) => (await import('./keys/list.js')).keysListCommand(m),
    revoke: async (m) => (await import('./keys/revoke.js')).keysRevokeCommand(m),
    rotate: async (m) => (await import('./keys/rotate.js')).keysRotateCommand(m),
    explain: async (m) => (await import('./keys/explain.js')).keysExplainCommand(m),
    validate: async (m) => (await import('./keys/validate.js')).keysValidateCommand(m),
    use: async (m) => (await import('./keys/use.js')).keysUseCommand(m),
  }),
  entry('apps', 'apps (MCP clients) you connected over OAuth: list, revoke', {
    list: async (m) => (await import('./apps/list.js')).appsListCommand(m),
    revoke: async (m) => (await import('./apps/revoke.js')).appsRevokeCommand(m),
  }),
  entry('account-key', 'your account key (ak_)', {
    rotate: async (m) => (await import('./account-key/rotate.js')).accountKeyRotateCommand(m),
  }),
  // events and channels
  entry('events', "a Company's events: list, follow, configure, trigger and trace", {
    list: async (m) => (await import('./events/list.js')).listCommand(m),
    tail: async (m) => (await import('./events/tail.js')).tailCommand(m),
    create: async (m) => (await import('./events/create.js')).createCommand(m),
    enable: async (m) => (await import('./events/enable.js')).enableCommand(m),
    disable: async (m) => (await import('./events/disable.js')).disableCommand(m),
    delete: async (m) => (await import('./events/delete.js')).deleteCommand(m),
    trigger: async (m) => (await import('./events/trigger.js')).triggerCommand(m),
    trace: async (m) => (await import('./events/trace.js')).traceCommand(m),
    forward: async (m) => (await import('./events/forward.js')).forwardCommand(m),
    resend: async (m) => (await import('./events/resend.js')).resendCommand(m),
    failures: async (m) => (await import('./events/failures.js')).failuresCommand(m),
    replay: async (m) => (await import('./events/replay.js')).replayCommand(m),
    preview: async (m) => (await import('./events/preview.js')).previewCommand(m),
    backfill: async (m) => (await import('./events/backfill.js')).backfillCommand(m),
    budget: async (m) => (await import('./events/budget.js')).budgetCommand(m),
  }),
  entry('channels', 'inbound webhook channels of a Company: create, list, rotate, delete', {
    create: async (m) => (await import('./channels/create.js')).channelsCreateCommand(m),
    list: async (m) => (await import('./channels/list.js')).channelsListCommand(m),
    rotate: async (m) => (await import('./channels/rotate.js')).channelsRotateCommand(m),
    delete: async (m) => (await import('./channels/delete.js')).channelsDeleteCommand(m),
  }),
  entry('webhook', 'send a signed test delivery to a webhook channel', async (m) =>
    (await import('./webhook/send.js')).webhookCommand(m),
  ),
  // MCP
  entry(
    'mcp',
    'MCP: run a stdio MCP server relaying to the platform (for Claude Desktop, the MCP Inspector), or make one call',
    async (m) => {
      const [serve, call, tools, install, uninstall] = await Promise.all([
        import('./mcp/serve.js'),
        import('./mcp/call.js'),
        import('./mcp/tools.js'),
        import('./mcp/install.js'),
        import('./mcp/uninstall.js'),
      ]);
      return serve.mcpCommand(m, [
        call.callCommand(m),
        tools.toolsCommand(m),
        install.installCommand(m),
        uninstall.uninstallCommand(m),
      ]);
    },
  ),
  // raw calls and shell completion
  entry('api', 'call any API route with your stored credentials and print the JSON (like gh api)', async (m) =>
    (await import('./api/call.js')).apiCommand(m),
  ),
  entry('completion', 'print a shell completion script: bash, zsh or fish', async (m) =>
    (await import('./completion/print.js')).completionCommand(m),
  ),
  // a local daemon and its operator surface
  entry('daemon', 'run the local svc daemon', {
    start: async (m) => (await import('./daemon/start.js')).startCommand(m),
    stop: async (m) => (await import('./daemon/stop.js')).stopCommand(m),
    status: async (m) => (await import('./daemon/status.js')).statusCommand(m),
  }),
  entry('mail', 'show the e-mail a local daemon captured (codes and magic links)', async (m) =>
    (await import('./mail/list.js')).mailCommand(m),
  ),
  // the local-dev loop: fixtures, a movable clock, scenarios (docs/dev-loop.md)
  entry('dev', 'the local daemon as a developer tool: seed fixtures, move the clock, run scenarios', {
    seed: async (m) => (await import('./dev/seed.js')).devSeedCommand(m),
    clock: async (m) => (await import('./dev/clock.js')).devClockCommand(m),
    scenario: async (m) => (await import('./dev/scenario.js')).devScenarioCommand(m),
  }),
  entry('audit', "who did what, with which key: your audit trail and your Companies'", {
    list: async (m) => (await import('./audit/list.js')).auditListCommand(m),
    tail: async (m) => (await import('./audit/tail.js')).auditTailCommand(m),
  }),
  entry('admin', 'operator commands: invites and tiers on a local daemon, export and import, audit verification', {
    invite: async (m) => (await import('./admin/invite.js')).inviteCommand(m),
    tier: async (m) => (await import('./admin/tier.js')).tierCommand(m),
    export: async (m) => (await import('./admin/export.js')).exportCommand(m),
    import: async (m) => (await import('./admin/import.js')).importCommand(m),
    audit: async (m) => (await import('./admin/audit-verify.js')).adminAuditCommand(m),
  }),
];

/**
 * Adds the commands to the program: `load` names the top-level commands to import and build in
 * full ('*' for all: help of everything, completion); the others are added as name and
 * description only, which is all `svc --help` shows of them.
 */
export async function registerCommands(
  program: Command,
  makeCtx: ContextFactory,
  load: Set<string> | '*',
): Promise<void> {
  const built = await Promise.all(
    ENTRIES.map((e) =>
      load === '*' || load.has(e.name)
        ? e.load(makeCtx)
        : Promise.resolve(new Command(e.name).description(e.description)),
    ),
  );
  for (const cmd of built) program.addCommand(cmd);
}

/**
 * The top-level command a command line names, with only the verb it names (`svc keys list` imports
 * keys/list.ts, not keys/create.ts): what the fast path (cli/program.ts) runs. Null for a word that
 * is no command or no verb of it; commander then answers with its usual error.
 */
export async function loadNamedCommand(
  makeCtx: ContextFactory,
  noun: string | undefined,
  verb: string | undefined,
): Promise<Command | null> {
  const e = ENTRIES.find((x) => x.name === noun);
  if (!e?.verbs) return e ? e.load(makeCtx) : null;
  const load = verb !== undefined && Object.hasOwn(e.verbs, verb) ? e.verbs[verb] : undefined;
  return load ? new Command(e.name).description(e.description).addCommand(await load(makeCtx)) : null;
}
