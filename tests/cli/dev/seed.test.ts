import { readFileSync, writeFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runSeed } from '../../../cli/commands/dev/seed.js';
import { runLogin } from '../../../cli/commands/auth/login.js';
import { runWhoami } from '../../../cli/commands/auth/whoami.js';
import { UsageError } from '../../../cli/errors.js';
import { devLoopSetUp, jsonFile } from '../../helpers/dev-loop.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { totpCodeAt } from '../../../daemon/auth/totp/totp-codes.js';

/** `${kind.name.field}`, written so that it is plainly not a template literal. */
const ref = (path: string) => ['$', '{', path, '}'].join('');
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const SEED = {
  users: {
    ada: { email: 'ada@example.com', password: 'correct horse battery', tier: 'company' },
    bob: { email: 'bob@example.com', password: 'another long password', totp_secret: SECRET },
  },
  companies: { acme: { name: 'acme', owner: 'ada' } },
  // scopes and expiry go to POST /api/keys as written (CONTRACT §9's names).
  keys: { ci: { company: 'acme', name: 'ci', scopes: ['events:read'], expires_in: 30 * 86_400 } },
  agents: { bot: { company: 'acme', name: 'bot', role: 'support' } },
  sessions: { main: { company: ref('companies.acme.id'), agent: 'bot' } },
  events: {
    welcome: {
      company: 'acme',
      type: 'session:started',
      agent_id: ref('agents.bot.id'),
      tool_calls: [
        {
          tool: 'quests.create',
          args: { title: 'welcome ' + ref('users.ada.email') + ' to ' + ref('companies.acme.name') },
        },
      ],
    },
  },
};

async function counts(t: Awaited<ReturnType<typeof devLoopSetUp>>['t']) {
  const ada = await t.deps.stores.users.findByEmail('ada@example.com');
  const companies = await t.deps.stores.companies.listByOwner(ada!.id);
  const runtime = await t.deps.runtimes.open(companies[0]!);
  const services = runtime.services;
  return {
    companies: companies.length,
    keys: (await t.deps.stores.keys.listSecretKeys(ada!.id)).length,
    agents: (await services.agents.list()).length,
    sessions: (await services.sessions.list({})).length,
    events: (await services.events.listConfigured({})).filter((c) => c.type === 'session:started').length,
  };
}

test('seeding twice makes one of everything, and the second run says nothing was made', async () => {
  const d = await devLoopSetUp();
  try {
    const file = jsonFile(SEED);
    await runSeed({ file }, d.cli.ctx);
    assert.match(d.cli.stdout(), /created {2}users\.ada {2}usr_/);
    assert.match(d.cli.stdout(), /SVC_KEY_CI=sk_/);
    const first = await counts(d.t);
    assert.equal(first, { companies: 1, keys: 1, agents: 1, sessions: 1, events: 1 });
    const second = d.again();
    await runSeed({ file }, second.ctx);
    assert.not.match(second.stdout(), /created/);
    assert.not.match(second.stdout(), /sk_/, 'a secret is shown only when its key is made');
    assert.match(second.stderr(), /nothing to do/);
    assert.equal(await counts(d.t), first);
    const ada = await d.t.deps.stores.users.findByEmail('ada@example.com');
    assert.is(ada!.tier, 'company');
    assert.ok(ada!.email_verified_at);
    const [key] = await d.t.deps.stores.keys.listSecretKeys(ada!.id);
    assert.equal(key!.scopes, ['events:read'], 'the key has only the scopes the file gave it');
    assert.is(Date.parse(key!.expires_at!) - Date.parse(key!.created_at), 30 * 86_400_000);
  } finally {
    await d.close();
  }
});

test('a seeded user logs in with the CLI, without mail; a TOTP secret makes the login ask for its code', async () => {
  const d = await devLoopSetUp();
  try {
    await runSeed({ file: jsonFile(SEED) }, d.cli.ctx);
    const ada = d.again({ stdin: 'correct horse battery\n' });
    await runLogin({ email: 'ada@example.com', passwordStdin: true }, ada.ctx);
    await runWhoami({}, ada.ctx);
    assert.match(ada.stdout(), /ada@example\.com/);
    assert.is((await d.t.deps.stores.outbox.list({})).length, 0, 'no mail was needed');

    const noCode = d.again({ stdin: 'another long password\n' });
    const refused = await runLogin({ email: 'bob@example.com', passwordStdin: true }, noCode.ctx).catch((e) => e);
    assert.ok(refused instanceof Error, 'bob has two-factor login: no code, no login');
    const bob = d.again({ stdin: 'another long password\n' });
    await runLogin(
      { email: 'bob@example.com', passwordStdin: true, otp: totpCodeAt(SECRET, d.t.clock.now()) },
      bob.ctx,
    );
    assert.match(bob.stderr() + bob.stdout(), /bob@example\.com/);
  } finally {
    await d.close();
  }
});

test('every reference form: whole-string (typed), inside text, a name link, an id link, a nested field', async () => {
  const d = await devLoopSetUp();
  try {
    await runSeed({ file: jsonFile(SEED) }, d.cli.ctx);
    const { t } = d;
    const ada = await t.deps.stores.users.findByEmail('ada@example.com');
    const [company] = await t.deps.stores.companies.listByOwner(ada!.id);
    const rt = await t.deps.runtimes.open(company!);
    const [agent] = await rt.services.agents.list();
    const [session] = await rt.services.sessions.list({});
    assert.is(session!.agent_id, agent!.id, 'agent: "bot" names the seeded agent');
    const cfg = (await rt.services.events.listConfigured({})).find((c) => c.type === 'session:started')!;
    assert.is(cfg.agent_id, agent!.id, ref('agents.bot.id') + ' took the id');
    assert.is(cfg.tool_calls[0]!.args.title, 'welcome ada@example.com to acme');
  } finally {
    await d.close();
  }
});

test('a reference to something not seeded, or seeded later, is a usage error naming it; nothing is sent for it', async () => {
  const d = await devLoopSetUp();
  try {
    const bad = jsonFile({ users: SEED.users, companies: { acme: { owner: ref('users.carol.id') } } });
    const err = await runSeed({ file: bad }, d.cli.ctx).catch((e) => e);
    assert.instance(err, UsageError);
    assert.match(err.message, /companies\.acme: \$\{users\.carol\.id\} refers to users\.carol, which is not seeded/);
    const owner = jsonFile({ companies: { acme: { owner: 'zed' } } });
    const err2 = await runSeed({ file: owner }, d.cli.ctx).catch((e) => e);
    assert.match(err2.message, /companies\.acme\.owner: 'zed' is not among the seeded users/);
    const field = jsonFile({ users: SEED.users, companies: { acme: { owner: 'ada', name: ref('users.ada.nope') } } });
    const err3 = await runSeed({ file: field }, d.cli.ctx).catch((e) => e);
    assert.match(err3.message, /users\.ada has no field 'nope'/);
  } finally {
    await d.close();
  }
});

test('bad files are one-line usage errors', async () => {
  const d = await devLoopSetUp();
  try {
    const dir = tempDir('svc-bad-seed');
    writeFileSync(join(dir, 'a.json'), '{ not json');
    writeFileSync(join(dir, 'b.json'), JSON.stringify({ widgets: {} }));
    writeFileSync(join(dir, 'c.yaml'), 'users: [unclosed');
    writeFileSync(join(dir, 'd.yml'), '- a list\n- not a map\n');
    for (const [name, pattern] of [
      ['a.json', /is not JSON/],
      ['b.json', /unknown key 'widgets'/],
      ['c.yaml', /is not YAML/],
      ['d.yml', /top level must be a YAML mapping/],
      ['missing.json', /cannot read/],
    ] as const) {
      const err = await runSeed({ file: join(dir, name) }, d.cli.ctx).catch((e) => e);
      assert.instance(err, UsageError, name);
      assert.match(err.message, pattern);
      assert.not.match(err.message, /\n/);
    }
    const weak = jsonFile({ users: { ada: { email: 'ada@example.com', password: 'short' } } });
    const err = await runSeed({ file: weak }, d.cli.ctx).catch((e) => e);
    assert.is(err.status, 400, 'the daemon refuses a weak password with a JSON 400, not a 500');
  } finally {
    await d.close();
  }
});

test('a YAML seed file seeds what the same JSON would', async () => {
  const d = await devLoopSetUp();
  try {
    const file = join(tempDir('svc-yaml-seed'), 'seed.yaml');
    writeFileSync(
      file,
      [
        '# a comment, which JSON cannot hold',
        'users:',
        '  ada: { email: ada@example.com, password: correct horse battery, tier: company }',
        'companies:',
        '  acme: { name: acme, owner: ada }',
        'agents:',
        '  bot: { company: acme, name: bot, role: support }',
        'sessions:',
        `  main: { company: "${ref('companies.acme.id')}", agent: bot }`,
        '',
      ].join('\n'),
    );
    await runSeed({ file }, d.cli.ctx);
    const ada = await d.t.deps.stores.users.findByEmail('ada@example.com');
    const [acme] = await d.t.deps.stores.companies.listByOwner(ada!.id);
    const runtime = await d.t.deps.runtimes.open(acme!);
    assert.equal(
      (await runtime.services.agents.list()).map((a) => a.name),
      ['bot'],
    );
    assert.is((await runtime.services.sessions.list({})).length, 1);
  } finally {
    await d.close();
  }
});

test('--write-env puts new secrets in the file (0600), keeps its other lines, and a rerun leaves it alone', async () => {
  const d = await devLoopSetUp();
  try {
    const env = join(tempDir('svc-env'), '.env.local');
    writeFileSync(env, 'PORT=3000\n');
    const file = jsonFile({ ...SEED, keys: { ci: { company: 'acme', env: 'SVC_SECRET_KEY' } } });
    await runSeed({ file, writeEnv: env }, d.cli.ctx);
    const text = readFileSync(env, 'utf8');
    assert.match(text, /^PORT=3000\nSVC_SECRET_KEY=sk_\S+\n$/);
    assert.not.match(d.cli.stdout(), /sk_/);
    assert.is(statSync(env).mode & 0o777, 0o600);
    await runSeed({ file, writeEnv: env }, d.again().ctx);
    assert.is(readFileSync(env, 'utf8'), text);
  } finally {
    await d.close();
  }
});

test('--reset without a terminal needs --yes, and refuses a folder that is not a data folder', async () => {
  const d = await devLoopSetUp();
  try {
    const file = jsonFile(SEED);
    const err = await runSeed({ file, reset: true }, d.cli.ctx).catch((e) => e);
    assert.instance(err, UsageError);
    assert.match(err.message, /add --yes/);
    const other = tempDir('svc-not-data');
    writeFileSync(join(other, 'notes.txt'), 'mine');
    const err2 = await runSeed({ file, reset: true, yes: true, data: other }, d.cli.ctx).catch((e) => e);
    assert.match(err2.message, /does not look like an svc data folder/);
    assert.is(readFileSync(join(other, 'notes.txt'), 'utf8'), 'mine');
  } finally {
    await d.close();
  }
});

test.run();
