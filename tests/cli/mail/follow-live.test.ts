import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runMail } from '../../../cli/commands/mail/list.js';
import { createFakeCli } from '../../helpers/cli.js';
import { createFakeTerminal } from '../../helpers/fake-terminal.js';
import { createTestApp, serveTestApp } from '../../helpers/test-app.js';

test('svc mail --follow on an interactive terminal is a live view with codes and links; q quits with a summary', async () => {
  const t = await createTestApp();
  const served = await serveTestApp(t);
  const stop = new AbortController();
  let following: Promise<void> | undefined;
  try {
    const cli = createFakeCli({ url: served.url });
    writeFileSync(join(cli.ctx.env.SVC_DATA_DIR!, 'operator-token'), t.deps.secrets.operatorToken + '\n', {
      mode: 0o600,
    });
    const term = createFakeTerminal({ columns: 140 });
    const ctx = {
      ...cli.ctx,
      io: term,
      interactive: true,
      color: false,
      out: (line = '') => void term.stdout.write(line + '\n'),
    };
    await t.deps.mailer.send({
      to: 'ada@example.com',
      subject: 'Your svc verification code',
      text: 'Your code is 123456.',
      code: '123456',
    });
    following = runMail(
      { follow: true, intervalMs: 1000, signal: stop.signal, sleep: () => new Promise((r) => setImmediate(r)) },
      ctx,
    );
    await term.waitFor((_, frame) => frame.includes('code 123456'));
    assert.match(term.lastFrame(), /^svc mail · every address\n/);
    assert.match(term.lastFrame(), /\d\d:\d\d:\d\d {2}ada@example\.com {2}Your svc verification code {2}code 123456/);
    await t.deps.mailer.send({
      to: 'bob@example.com',
      subject: 'Your sign-in link',
      text: 'Open it.',
      link: 'http://127.0.0.1:7878/magic?token=abc',
    });
    await term.waitFor((_, frame) => frame.includes('magic?token=abc'));
    assert.match(term.lastFrame(), /● connected · 2 messages/);
    term.press('q');
    await following;
    assert.match(term.text().trimEnd().split('\n').pop()!, /^2 messages shown$/);
  } finally {
    stop.abort();
    await following?.catch(() => {});
    await served.close();
  }
});

test.run();
