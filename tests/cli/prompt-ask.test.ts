import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ask } from '../../cli/prompt.js';
import { UsageError } from '../../cli/errors.js';
import { createFakeCli } from '../helpers/cli.js';

test('a secret prompt shows the question but not what is typed', async () => {
  const cli = createFakeCli({ stdin: 'hunter2-code\n' });
  const answer = await ask({ ...cli.ctx, interactive: true }, 'Code: ', { secret: true });
  assert.is(answer, 'hunter2-code');
  assert.match(cli.stderr(), /Code/);
  assert.not.match(cli.stderr(), /hunter2/);
});

test('a plain prompt returns the trimmed line; without a terminal it is a usage error with the flag hint', async () => {
  const cli = createFakeCli({ stdin: '  ada@example.com \n' });
  assert.is(await ask({ ...cli.ctx, interactive: true }, 'E-mail: '), 'ada@example.com');
  try {
    await ask(createFakeCli().ctx, 'E-mail: ', { flagHint: 'pass --email' });
    assert.unreachable();
  } catch (err) {
    assert.instance(err, UsageError);
    assert.is((err as UsageError).hint, 'pass --email');
  }
});

test.run();
