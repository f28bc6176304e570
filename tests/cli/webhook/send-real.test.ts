import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createApiClient } from '../../../cli/api-client.js';
import { currentCompanyKey } from '../../../cli/company.js';
import { runWebhookSend } from '../../../cli/commands/webhook/send.js';
import { createFakeCli } from '../../helpers/cli.js';
import { createEmitterTestApp } from '../../helpers/emitters-app.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { serveTestApp } from '../../helpers/test-app.js';

test('svc webhook send against the real daemon route: delivered, fired, routed to a bridged session, then dedup', async () => {
  // The CLI signs with the real time, so the daemon's clock starts at it.
  const a = await createEmitterTestApp({ clock: new FakeClock(Date.now()) });
  const secret = (await a.post('/api/channels', { name: 'ci' })).body.secret as string;
  await a.post('/api/events', {
    type: 'webhook:ci',
    tool_calls: [{ tool: 'quests.create', args: { title: 'From CI' } }],
  });
  const bob = (await a.post('/api/agents', { name: 'Bob' })).body.agent;
  await a.post('/api/sessions', { agent_id: bob.id, gateway_channel_id: 'ci' });
  const served = await serveTestApp(a.t);
  try {
    // The user's token only resolves the Company; the delivery itself goes out without it (token: null).
    const fake = createFakeCli({
      url: served.url,
      env: { SVC_WEBHOOK_SECRET: secret },
      api: createApiClient(served.url, async () => a.user.token),
    });
    fake.ctx.config().set(currentCompanyKey(fake.ctx.url()), { id: a.company.id, name: a.company.name });
    const send = () =>
      runWebhookSend(
        {
          channel: 'ci',
          body: '{"text":"@bob the build is red","user":"dana"}',
          secretStdin: false,
          dryRun: false,
          delivery: 'dlv-cli-1',
        },
        fake.ctx,
      );
    await send();
    assert.match(fake.stdout(), 'delivered dlv-cli-1 as webhook:ci');
    assert.match(fake.stdout(), 'fired 1 tool call(s): quests.create');
    assert.match(fake.stdout(), 'started a turn');
    assert.equal(
      (await a.runtime.services.quests.list()).map((q) => q.title),
      ['From CI'],
    );
    await send();
    assert.match(fake.stdout(), /duplicate|already/i);
    assert.equal(
      (await a.runtime.services.quests.list()).map((q) => q.title),
      ['From CI'],
      'the same delivery id is not emitted twice',
    );
  } finally {
    await served.close();
  }
});

test.run();
