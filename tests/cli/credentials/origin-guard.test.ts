import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createCredentialStore } from '../../../cli/credentials/index.js';
import { guardOrigin } from '../../../cli/credentials/origin-guard.js';
import type { CredentialStore } from '../../../cli/credentials/store.js';
import { UsageError } from '../../../cli/errors.js';
import { runMain } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp-dir.js';

function memoryStore(): CredentialStore & { names(): string[] } {
  const secrets = new Map<string, string>();
  return {
    kind: () => 'file',
    get: async (a) => secrets.get(a) ?? null,
    set: async (a, s) => void secrets.set(a, s),
    delete: async (a) => secrets.delete(a),
    names: () => [...secrets.keys()],
  };
}

/** A local profile (no URL) as the context builds it, talking to `target`. */
function localProfile(store: CredentialStore, target: { url: string }) {
  let binding: string | undefined;
  let forgotten = 0;
  const guarded = guardOrigin(store, {
    profile: 'default',
    target: () => target.url,
    binding: { get: () => binding, set: (o) => void (binding = o) },
    async forget() {
      forgotten++;
      await store.delete('token:profile:default');
      await store.delete('account-key:profile:default');
    },
  });
  return { guarded, binding: () => binding, forgotten: () => forgotten };
}

test('a local profile: any loopback port; once logged in to a remote server, that server only', async () => {
  const store = memoryStore();
  const target = { url: 'http://127.0.0.1:7878' };
  const p = localProfile(store, target);
  await p.guarded.set('token:profile:default', 'local-jwt');
  await p.guarded.set('account-key:profile:default', 'ak_local');
  assert.is(p.binding(), undefined, 'a login on this machine binds nothing');
  target.url = 'http://127.0.0.1:41234'; // `svc daemon start --port 0`: still logged in
  assert.is(await p.guarded.get('token:profile:default'), 'local-jwt');
  target.url = 'http://[::1]:7878';
  assert.is(await p.guarded.get('token:profile:default'), 'local-jwt');

  target.url = 'https://evil.example/api';
  const refused = await p.guarded.get('token:profile:default').catch((e: unknown) => e);
  assert.instance(refused, UsageError);
  assert.match(
    (refused as Error).message,
    "profile 'default' is logged in to this machine, not https://evil.example: its credentials are not sent to another server",
  );
  assert.is(await p.guarded.get('secret-key:profile:default:co_x'), null, 'nothing stored: nothing to refuse');

  // A login against a remote URL (SVC_URL, no profile for it) moves the profile there; what this machine issued goes.
  target.url = 'https://team.example.com';
  await p.guarded.set('token:profile:default', 'team-jwt');
  assert.is(p.binding(), 'https://team.example.com');
  assert.is(p.forgotten(), 1);
  assert.equal(store.names(), ['token:profile:default'], 'the local account key is not carried to the team server');
  assert.is(await p.guarded.get('token:profile:default'), 'team-jwt');
  for (const url of ['https://other.example.com', 'http://127.0.0.1:7878']) {
    target.url = url;
    assert.instance(await p.guarded.get('token:profile:default').catch((e: unknown) => e), UsageError, url);
  }
  // Logging in on this machine again brings it home.
  await p.guarded.set('token:profile:default', 'local-again');
  assert.is(p.binding(), undefined);
  assert.is(p.forgotten(), 2);
  assert.is(await p.guarded.get('token:profile:default'), 'local-again');
});

test('a profile with a URL: its credentials go to that origin only; storing for another is refused', async () => {
  const store = memoryStore();
  const target = { url: 'https://svc.example.com/' };
  const guarded = guardOrigin(store, {
    profile: 'work',
    target: () => target.url,
    profileUrl: 'https://svc.example.com',
    binding: { get: () => undefined, set: () => assert.unreachable('a profile with a URL is never rebound') },
    forget: async () => assert.unreachable('never forgets'),
  });
  await guarded.set('token:profile:work', 'jwt');
  assert.is(await guarded.get('token:profile:work'), 'jwt');
  for (const url of ['http://127.0.0.1:7878', 'https://staging.example.com', 'http://svc.example.com']) {
    target.url = url;
    const err = await guarded.get('token:profile:work').catch((e: Error) => e);
    assert.match(
      String((err as Error).message),
      /profile 'work' is logged in to https:\/\/svc\.example\.com, not/,
      url,
    );
    assert.match(String((await guarded.set('token:profile:work', 'x').catch((e: Error) => e)) as Error), /not sent/);
  }
});

test('svc --url elsewhere: the stored login is not sent; a one-line error says why and what to do', async () => {
  const env = { SVC_CONFIG_DIR: tempDir('svc-config'), SVC_KEYCHAIN: 'off' };
  await createCredentialStore({ configDir: env.SVC_CONFIG_DIR, env, warn: () => {} }).set(
    'token:profile:default',
    'a.b.c',
  );
  const elsewhere = await runMain(['--url', 'https://elsewhere.example', 'whoami'], env);
  assert.is(elsewhere.code, 2, elsewhere.err);
  assert.match(elsewhere.err, /profile 'default' is logged in to this machine, not https:\/\/elsewhere\.example/);
  assert.match(elsewhere.err, /svc profile add <name> --url https:\/\/elsewhere\.example/);
  // SVC_TOKEN is the user's own choice for this one command: it goes where they say.
  const explicit = await runMain(['--url', 'http://127.0.0.1:9', 'whoami'], { ...env, SVC_TOKEN: 'x.y.z' });
  assert.not.match(explicit.err, /not sent to another server/);
});

test.run();
