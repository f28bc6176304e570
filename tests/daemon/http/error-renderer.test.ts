import Koa from 'koa';
import { inject } from 'light-my-request';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  conflicting,
  DomainError,
  forbidden,
  invalid,
  missing,
  paymentRequired,
  rateLimited,
  type Refusal,
  tooLarge,
  unauthenticated,
  unavailable,
} from '../../../daemon/domain-error.js';
import { errorRenderer } from '../../../daemon/http/error-renderer.js';
import { silentLogger } from '../../../daemon/logger.js';

/** A one-route app whose only middleware throws `err` behind the renderer, as a service's refusal would. */
async function render(err: unknown) {
  const app = new Koa();
  app.use(async (ctx, next) => {
    ctx.state.requestId = 'req_test';
    await next();
  });
  app.use(errorRenderer(silentLogger));
  app.use(() => {
    throw err;
  });
  const res = await inject(app.callback(), { method: 'GET', url: '/api/x' });
  return { status: res.statusCode, body: JSON.parse(res.payload), retryAfter: res.headers['retry-after'] };
}

// The whole vocabulary, one row each: a client sees these statuses, bodies and headers, whichever
// service refused. A new refusal must get a row here (the Record type makes it one).
const ROWS: Record<Refusal, { err: DomainError; status: number; body: object; retryAfter?: string }> = {
  invalid: {
    err: invalid('title: Too small', 'validation_failed', { fields: [{ field: 'title', message: 'Too small' }] }),
    status: 400,
    body: { fields: [{ field: 'title', message: 'Too small' }], error: 'title: Too small', code: 'validation_failed' },
  },
  unauthenticated: {
    err: unauthenticated(),
    status: 401,
    body: { error: 'Authentication required.', code: 'unauthorized' },
  },
  payment_required: {
    err: paymentRequired('Needs the company tier.', 'subscription_required', { tier: 'trial' }),
    status: 402,
    body: { tier: 'trial', error: 'Needs the company tier.', code: 'subscription_required' },
  },
  forbidden: {
    err: forbidden('Not yours.'),
    status: 403,
    body: { error: 'Not yours.', code: 'forbidden' },
  },
  not_found: {
    err: missing('No such thing.'),
    status: 404,
    body: { error: 'No such thing.', code: 'not_found' },
  },
  conflict: {
    err: conflicting('Taken.'),
    status: 409,
    body: { error: 'Taken.', code: 'conflict' },
  },
  too_large: {
    err: tooLarge('Too big.'),
    status: 413,
    body: { error: 'Too big.', code: 'payload_too_large' },
  },
  rate_limited: {
    err: rateLimited(42),
    status: 429,
    body: { retry_after: 42, error: 'Too many requests. Try again later.', code: 'rate_limited' },
    retryAfter: '42',
  },
  unavailable: {
    err: unavailable('The mail server is down.', 'mail_unavailable'),
    status: 503,
    body: { error: 'The mail server is down.', code: 'mail_unavailable' },
    retryAfter: '30',
  },
};

for (const [refusal, row] of Object.entries(ROWS)) {
  test(`a ${refusal} refusal is a ${row.status} with its code, message and details`, async () => {
    assert.is(row.err.refusal, refusal);
    const res = await render(row.err);
    assert.is(res.status, row.status);
    assert.equal(res.body, { ...row.body, request_id: 'req_test' });
    assert.is(res.retryAfter, row.retryAfter);
  });
}

test('Retry-After is whole seconds, at least 1, while retry_after keeps the wait as given', async () => {
  assert.is((await render(rateLimited(0.2))).retryAfter, '1');
  assert.is((await render(rateLimited(0))).retryAfter, '1');
  const res = await render(rateLimited(2.5, 'Slow down.', 'account_locked'));
  assert.is(res.retryAfter, '3');
  assert.equal(res.body, { retry_after: 2.5, error: 'Slow down.', code: 'account_locked', request_id: 'req_test' });
});

test('an unavailable refusal with its own wait says that wait', async () => {
  const err = new DomainError('unavailable', 'busy', 'Busy.', {}, { retryAfter: 5 });
  assert.is((await render(err)).retryAfter, '5');
});

test('details cannot override the code or message of a refusal', async () => {
  const res = await render(invalid('The real message.', 'real_code', { error: 'spoofed', code: 'spoofed' }));
  assert.equal(res.body, { error: 'The real message.', code: 'real_code', request_id: 'req_test' });
});

test.run();
