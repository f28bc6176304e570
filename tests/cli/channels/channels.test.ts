import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runChannelsCreate } from '../../../cli/commands/channels/create.js';
import { runChannelsDelete } from '../../../cli/commands/channels/delete.js';
import { runChannelsList } from '../../../cli/commands/channels/list.js';
import { runChannelsRotate } from '../../../cli/commands/channels/rotate.js';
import { ApiRequestError } from '../../../cli/errors.js';
import { createFakeCli } from '../../helpers/cli.js';
import { createRuntimeApi } from '../../helpers/runtime-api.js';
import { createRuntimeTestApp } from '../../helpers/runtime-app.js';

async function setup(json = false) {
  const t = await createRuntimeTestApp();
  const { api, calls } = createRuntimeApi(t);
  return { t, cli: createFakeCli({ api, json }), calls };
}

test('svc channels create prints the secret once; list never shows it; rotate and delete', async () => {
  const { cli, calls } = await setup();
  await runChannelsCreate({ company: 'acme', name: 'ci' }, cli.ctx);
  assert.match(cli.stdout(), /created channel ci {2}\(deliveries: POST \/api\/webhooks\/ci\)\nsecret: whsec_\S{43}\n/);
  assert.match(cli.stderr(), /shown only once/);
  assert.ok(calls.every((c) => c.path === '/api/companies' || c.headers['X-Company']));
  await runChannelsList({ company: 'acme' }, cli.ctx);
  const listed = cli
    .stdout()
    .split('\n')
    .filter((l) => l.startsWith('ci  created'));
  assert.is(listed.length, 1);
  assert.not.match(listed[0]!, /whsec_/);
  await runChannelsRotate({ company: 'acme', name: 'ci', graceMs: 0 }, cli.ctx);
  assert.match(cli.stdout(), /rotated ci\nsecret: whsec_/);
  assert.match(cli.stderr(), /previous secret no longer works/);
  await runChannelsDelete({ company: 'acme', name: 'ci' }, cli.ctx);
  assert.match(cli.stdout(), /deleted channel ci/);
  const gone = await runChannelsDelete({ company: 'acme', name: 'ci' }, cli.ctx).catch((e) => e);
  assert.instance(gone, ApiRequestError);
  assert.is(gone.code, 'channel_not_found');
});

test('--json prints the daemon answers', async () => {
  const { cli } = await setup(true);
  await runChannelsCreate({ company: 'acme', name: 'deploys' }, cli.ctx);
  const made = JSON.parse(cli.stdout());
  assert.is(made.channel.name, 'deploys');
  assert.match(made.secret, /^whsec_/);
});

test.run();
