/** Folder rules: which room may import which (docs/robustness.md, "Boundaries"). */

/** A rule for a daemon room (`daemon/<from>/`) that may not import the rooms named (`a|b|c`): they stand above it or beside it. */
const room = (name, from, forbidden, comment) => ({
  name,
  severity: 'error',
  comment,
  from: { path: `^daemon/${from}/` },
  to: { path: `^daemon/(${forbidden})/` },
});

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'An import cycle between files means two concerns that cannot be read or tested apart.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'cli-starts-daemon-only',
      severity: 'error',
      comment: 'The CLI talks to the daemon over HTTP; only `svc daemon …` may load daemon code to start it in-process.',
      // Exceptions: `svc admin export|import` read and write the storage directly (like pg_dump),
      // offline, so they load daemon/transfer/; `svc admin audit verify` reads a stopped daemon's
      // audit files (read-only). Both lazily, only when run.
      from: { path: '^cli/', pathNot: '^cli/commands/(daemon/|admin/(export|import|audit-verify)[.]ts$)' },
      to: { path: '^daemon/' },
    },
    {
      name: 'daemon-not-cli',
      severity: 'error',
      comment: 'The daemon never depends on the CLI.',
      from: { path: '^daemon/' },
      to: { path: '^cli/' },
    },
    // The daemon's rooms, lowest first (docs/architecture.md): store/ → http/ → auth/ → oauth/ →
    // access/ and company/ → companies/ → keys/ and mcp/ → app.ts. Each rule says what a room may not import.
    {
      name: 'store-imports-nothing-above',
      severity: 'error',
      comment:
        'Storage is the ground floor: shared/ and the root utilities only. The event log, the journals and PostgreSQL know records, never requests or features.',
      from: { path: '^daemon/store/' },
      to: {
        path: '^daemon/',
        pathNot: '^daemon/(store/|(clock|ids|logger|random|domain-error|data-dir|config|factors-config)[.]ts$)',
      },
    },
    {
      name: 'http-is-no-feature',
      severity: 'error',
      comment:
        'http/ is the frame every room stands on (errors, bodies, limits, generic guards): it takes verifiers and checks as arguments and imports no feature room.',
      from: { path: '^daemon/http/' },
      to: {
        path: '^daemon/',
        pathNot: '^daemon/(http/|store/|(clock|ids|logger|random|domain-error|config|factors-config)[.]ts$)',
      },
    },
    room('auth-below-access', 'auth', 'access|oauth|keys|companies|company|mcp|console|dev|transfer',
      'Accounts know users and sessions; who may reach a Company (access, companies, keys) is decided above them.'),
    room('oauth-between-auth-and-access', 'oauth', 'access|keys|companies|company|mcp|console|dev|transfer|health',
      'The authorization server issues and checks tokens for accounts (auth/ below it); the permission check in access/ and the MCP endpoint above it use what a token resolves to, never the other way round.'),
    room('access-below-companies', 'access', 'keys|companies|mcp|console|dev|transfer',
      'access/ resolves principals (a session, a key) and their tier; the rooms that select and manage Companies use it.'),
    room('company-serves-one-company', 'company', 'auth|access|keys|companies|mcp|console|dev|transfer|health',
      'A Company runtime sees one Company and never how it was chosen or by whom: no accounts, keys, tenant selection or transports.'),
    {
      name: 'company-through-its-face',
      severity: 'error',
      comment:
        "Outside daemon/company/, the Company room is reached through company/index.ts only, so its layers can change without its callers noticing.",
      from: { path: '^daemon/', pathNot: '^daemon/company/' },
      to: { path: '^daemon/company/', pathNot: '^daemon/company/index[.]ts$' },
    },
    room('companies-below-keys-and-mcp', 'companies', 'keys|mcp|console|dev|transfer',
      'Companies and tenant selection stand below the rooms that manage keys and serve MCP.'),
    {
      name: 'keys-and-mcp-apart',
      severity: 'error',
      comment: 'Key management and the MCP endpoint are siblings: each stands on access/ and the Company face, not on the other.',
      from: { path: '^daemon/(keys|mcp)/' },
      // $1: the room the import is from; a room may import itself.
      to: { path: '^daemon/(keys|mcp|console|dev|transfer)/', pathNot: '^daemon/$1/' },
    },
    room('audit-above-companies', 'audit', 'keys|mcp|oauth|console|dev|transfer|health',
      'The audit trail records what the rooms below it decided (accounts, access, Companies) and reads the trail from storage; the MCP endpoint notes its tool calls through it. It depends on no sibling or edge room.'),
    {
      name: 'audit-not-below',
      severity: 'error',
      comment:
        'Rooms below the audit trail never import it: what they do is recorded after they answer (audit/trail.ts), so they stay unaware of it.',
      from: { path: '^daemon/(store|http|auth|oauth|access|company|companies)/' },
      to: { path: '^daemon/audit/' },
    },
    {
      name: 'edge-rooms-stand-alone',
      severity: 'error',
      comment: 'The console, the operator surface, health and transfer sit at the edge: they use lower rooms, not each other.',
      from: { path: '^daemon/(console|dev|health|transfer)/' },
      to: { path: '^daemon/(access|keys|companies|mcp|console|dev|health|transfer)/', pathNot: '^daemon/$1/' },
    },
    {
      name: 'services-speak-no-http',
      severity: 'error',
      comment:
        'Below the routes a refusal is a DomainError (daemon/domain-error.ts), and only the HTTP error renderer gives it a status. A route file is one named routes.ts, *-routes.ts or *-route.ts, or one in a routes/ folder: it registers routes and may throw ApiError. No other file of these rooms may.',
      from: {
        path: '^daemon/(auth|access|oauth|companies|company|keys|mcp/tools)/',
        pathNot: '(/|-)routes?[.]ts$|/routes/',
      },
      to: { path: '^daemon/http/api-error[.]ts$' },
    },
    {
      name: 'nothing-imports-the-entry',
      severity: 'error',
      comment: 'app.ts and main.ts compose the rooms; no room depends on them.',
      from: { path: '^daemon/[^/]+/' },
      to: { path: '^daemon/(app|main|bundled-main|daemon-options)[.]ts$' },
    },
    {
      name: 'shared-stands-alone',
      severity: 'error',
      comment: 'shared/ is imported by the CLI, the daemon and the console, so it imports none of them.',
      from: { path: '^shared/' },
      to: { path: '^(cli|daemon|console|tests|bench)/' },
    },
    {
      name: 'console-browser-only',
      severity: 'error',
      comment: 'The console bundle runs in a browser: it may use shared/ but not CLI or daemon code.',
      from: { path: '^console/' },
      to: { path: '^(cli|daemon)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
  },
};
