/** Folder rules: which room may import which (docs/robustness.md, "Boundaries"). */
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
      // One exception: `svc admin export|import` read and write the storage directly (like pg_dump),
      // offline, so they load daemon/transfer/ (lazily, only when run).
      from: { path: '^cli/', pathNot: '^cli/commands/(daemon/|admin/(export|import)[.]ts$)' },
      to: { path: '^daemon/' },
    },
    {
      name: 'daemon-not-cli',
      severity: 'error',
      comment: 'The daemon never depends on the CLI.',
      from: { path: '^daemon/' },
      to: { path: '^cli/' },
    },
    {
      name: 'stores-not-http',
      severity: 'error',
      comment:
        'Stores hold records; HTTP, routes and services sit above them. The event log format and its query rules (daemon/store/event-log/) are the storage contract that the PostgreSQL log implements too.',
      from: { path: '^daemon/store/' },
      to: { path: '^daemon/(http|gateway|auth|keys|mcp|events|runtime|console|dev)/', pathNot: '^daemon/store/event-log/' },
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
