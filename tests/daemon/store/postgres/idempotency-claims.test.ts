import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createIdempotentRunner } from '../../../../daemon/company/bus/idempotency.js';
import { CLAIM_MARGIN_MS } from '../../../../daemon/company/bus/unstored-answers.js';
import type { IdempotencyStore } from '../../../../daemon/store/runtime-types.js';
import { CLAIM_MS, createIdempotencyStore } from '../../../../daemon/store/postgres/runtime/idempotency.js';
import { FakeClock } from '../../../helpers/fake-clock.js';
import { testPostgres } from '../../../helpers/postgres.js';
import { PgFixture } from './pg-fixture.js';

/**
 * An Idempotency-Key repeated on two daemons at once (two pools on one database, migration 106):
 * one request runs, the other waits for its answer; a failed run leaves the key to the repeat; a
 * different request under a held key is refused at once; a claim left by a daemon that died is
 * taken over once it has run out.
 */
const cluster = testPostgres();
if (cluster) {
  const test = suite('postgres idempotency: one run per key across daemons');
  const daemons = new PgFixture(cluster).twoDaemons(test, 4);
  let company_ = 0;
  /** A runner on each daemon, for a Company of its own (each test starts from no keys). */
  const twoDaemons = (clock = new FakeClock()) => {
    const id = `cmp_idem_${++company_}`;
    const stores = [createIdempotencyStore(daemons.a.pool, id), createIdempotencyStore(daemons.b.pool, id)];
    return { clock, stores, runners: stores.map((s) => createIdempotentRunner(s, () => clock.now())) };
  };

  test('the same request on two daemons at once runs once; both get its answer', async () => {
    const { runners } = twoDaemons();
    let runs = 0;
    const run = async () => {
      runs++;
      await sleep(80); // the append and its tool calls take a while: the repeat arrives meanwhile
      return { event: `evt_${runs}` };
    };
    const answers = await Promise.all(runners.map((once) => once('emit', 'retry-1', { type: 'x' }, run)));
    assert.is(runs, 1);
    assert.equal(answers[0]!.answer, answers[1]!.answer);
    assert.equal(answers.map((x) => x.replayed).sort(), [false, true]);
    // Later repeats on either daemon replay it.
    const later = await runners[1]!('emit', 'retry-1', { type: 'x' }, run);
    assert.equal(later, { answer: { event: 'evt_1' }, replayed: true });
    assert.is(runs, 1);
  });

  test('a run that fails leaves the key to the repeat waiting on the other daemon, which runs', async () => {
    const { runners } = twoDaemons();
    let runs = 0;
    // Daemon B asks only once A holds the key (A's run has started), so the order does not depend
    // on how busy the machine is.
    let started!: () => void;
    const aHoldsTheKey = new Promise<void>((r) => (started = r));
    const run = async () => {
      runs++;
      if (runs === 1) started();
      await sleep(60); // the repeat arrives meanwhile
      if (runs === 1) throw new Error('refused');
      return 'stored';
    };
    const onA = runners[0]!('emit', 'k', { type: 'x' }, run);
    const onB = aHoldsTheKey.then(() => runners[1]!('emit', 'k', { type: 'x' }, run));
    const results = await Promise.allSettled([onA, onB]);
    assert.is(runs, 2);
    assert.is(results[0]!.status, 'rejected');
    assert.equal(results[1], { status: 'fulfilled', value: { answer: 'stored', replayed: false } });
  });

  test('another request under a key held on the other daemon is a 409 at once, without waiting', async () => {
    const { runners } = twoDaemons();
    let release!: () => void;
    let started!: () => void;
    const aHoldsTheKey = new Promise<void>((r) => (started = r));
    const first = runners[0]!('emit', 'k', { n: 1 }, () => {
      started();
      return new Promise<string>((r) => (release = () => r('one')));
    });
    await aHoldsTheKey;
    const other = await runners[1]!('emit', 'k', { n: 2 }, async () => 'two').catch((e) => e);
    assert.is(other.code, 'idempotency_key_reused');
    release();
    assert.equal(await first, { answer: 'one', replayed: false });
  });

  test('a claim left by a daemon that died is taken over once it has run out', async () => {
    const { clock, stores, runners } = twoDaemons();
    // Daemon A took the key for the same request and died before answering.
    const fingerprint = createHash('sha256')
      .update(JSON.stringify({ type: 'x' }))
      .digest('base64url');
    const dead = await stores[0]!.claim!('emit\0k', fingerprint, clock.now());
    assert.ok('token' in dead);
    let waited = false;
    const pending = runners[1]!('emit', 'k', { type: 'x' }, async () => 'ran').then((x) => (waited = true) && x);
    await sleep(100);
    assert.is(waited, false, 'the repeat waits while the claim is live');
    clock.advance(CLAIM_MS + 1);
    assert.equal(await pending, { answer: 'ran', replayed: false });
    assert.is(await stores[0]!.get('emit\0k', clock.now()).then((x) => x?.answer), 'ran');
  });

  test('an answer past the window is taken over by exactly one of many repeats, and replayed to none', async () => {
    const { clock, stores } = twoDaemons();
    const fingerprint = createHash('sha256').update('same request').digest('base64url');
    for (let i = 0; i < 40; i++)
      await stores[0]!.remember(`emit\0k${i}`, { fingerprint, answer: 'yesterday' }, clock.now());
    clock.advance(24 * 3600_000 + 1);
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        Promise.all([0, 1, 0, 1].map((d) => stores[d]!.claim!(`emit\0k${i}`, fingerprint, clock.now()))),
      ),
    );
    for (const claims of outcomes) {
      assert.is(claims.filter((c) => 'token' in c).length, 1, JSON.stringify(claims));
      assert.is(claims.filter((c) => 'remembered' in c).length, 0, JSON.stringify(claims));
    }
  });

  /**
   * The database refuses to store this Company's answers (a real error raised by PostgreSQL, as when
   * it fails over mid-request): a trigger on the row update that ends a claim. Dropped by `lift`.
   */
  const refuseAnswers = async (company: string) => {
    const name = `refuse_${company}`;
    await daemons.a.pool.query(`
      CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.company_id = '${company}' AND NEW.claim IS NULL THEN RAISE EXCEPTION 'the database went away'; END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER ${name} BEFORE UPDATE ON svc_rt_idempotency FOR EACH ROW EXECUTE FUNCTION ${name}();`);
    return { lift: () => daemons.a.pool.query(`DROP TRIGGER ${name} ON svc_rt_idempotency; DROP FUNCTION ${name}();`) };
  };
  const fingerprintOf = (request: unknown) => createHash('sha256').update(JSON.stringify(request)).digest('base64url');

  test('a late answer from a run whose claim was taken over leaves the newer claim and its answer alone', async () => {
    const { clock, stores } = twoDaemons();
    const fingerprint = fingerprintOf({ type: 'x' });
    const slow = await stores[0]!.claim!('emit\0k', fingerprint, clock.now());
    clock.advance(CLAIM_MS + 1);
    const fresh = await stores[1]!.claim!('emit\0k', fingerprint, clock.now());
    assert.ok('token' in slow && 'token' in fresh);
    // The slow run answers after the takeover: the key stays with the run that took it over.
    await stores[0]!.remember('emit\0k', { fingerprint, answer: 'slow' }, clock.now(), slow.token);
    assert.equal(await stores[0]!.claim!('emit\0k', fingerprint, clock.now()), { heldFor: fingerprint });
    await stores[1]!.remember('emit\0k', { fingerprint, answer: 'fresh' }, clock.now(), fresh.token);
    // And once that run has answered, the slow one's answer does not replace it either.
    await stores[0]!.remember('emit\0k', { fingerprint, answer: 'slow' }, clock.now(), slow.token);
    assert.is(await stores[0]!.get('emit\0k', clock.now()).then((x) => x?.answer), 'fresh');
  });

  test('an answer the database refuses still reaches its caller; the daemon stores it once the database takes it, and no repeat runs again', async () => {
    const { clock, stores } = twoDaemons();
    let lifted!: () => void;
    const liftedNow = new Promise<void>((r) => (lifted = r));
    const onA = createIdempotentRunner(stores[0]!, () => clock.now(), { pause: () => liftedNow });
    const onB = createIdempotentRunner(stores[1]!, () => clock.now());
    const company = `cmp_idem_${company_}`;
    const refusal = await refuseAnswers(company);
    let runs = 0;
    const run = async () => `event ${++runs}`;
    const first = await onA('emit', 'k', { type: 'x' }, run);
    assert.equal(first, { answer: 'event 1', replayed: false }, 'the event was appended: its caller hears so');
    assert.is(onA.unstored(), 1);
    // A repeat sent to the same daemon meanwhile is answered from memory; one sent to the other waits for the claim.
    assert.equal(await onA('emit', 'k', { type: 'x' }, run), { answer: 'event 1', replayed: true });
    assert.is((await onA('emit', 'k', { type: 'y' }, run).catch((e) => e)).code, 'idempotency_key_reused');
    let onBAnswered = false;
    const onBRepeat = onB('emit', 'k', { type: 'x' }, run).then((x) => ((onBAnswered = true), x));
    await sleep(60);
    assert.is(onBAnswered, false);
    await refusal.lift();
    lifted();
    await onA.settled();
    assert.is(onA.unstored(), 0);
    assert.equal(await onBRepeat, { answer: 'event 1', replayed: true });
    assert.is(runs, 1);
  });

  test('an answer refused until its claim nearly ends is given up, logged, and never replayed against the store', async () => {
    const { clock, stores } = twoDaemons();
    let tries = 0;
    const counted: IdempotencyStore = {
      ...stores[0]!,
      remember: (...a) => (tries++, stores[0]!.remember(...a)),
    };
    const problems: string[] = [];
    // Each pause moves the daemon's clock on by what it waits.
    const onA = createIdempotentRunner(counted, () => clock.now(), {
      pause: async (ms) => clock.advance(ms),
      onProblem: (message) => problems.push(message),
    });
    const refusal = await refuseAnswers(`cmp_idem_${company_}`);
    let runs = 0;
    const run = async () => {
      clock.advance(5_000); // the append and its tool calls took 5 s of the claim's 30
      return `event ${++runs}`;
    };
    assert.equal(await onA('emit', 'k', { type: 'x' }, run), { answer: 'event 1', replayed: false });
    await onA.settled();
    assert.is(onA.unstored(), 0);
    assert.ok(tries > 5 && tries < 40, `tried ${tries} times while the claim lasted`);
    assert.equal(problems, [
      'idempotent answer not stored yet: the store refused it',
      'idempotent answer given up: a repeat of its key may run again',
    ]);
    // The claim's last second: the answer is no longer replayed from memory, so once another run
    // takes the key over, this daemon and the store never disagree about it.
    assert.ok(clock.now() >= Date.parse('2026-01-15T12:00:00Z') + CLAIM_MS - CLAIM_MARGIN_MS);
    await refusal.lift();
    clock.advance(CLAIM_MARGIN_MS + 1);
    assert.equal(await onA('emit', 'k', { type: 'x' }, run), { answer: 'event 2', replayed: false });
    assert.is(await stores[1]!.get('emit\0k', clock.now()).then((x) => x?.answer), 'event 2');
  });

  test('a stored answer whose reply was lost is tried again harmlessly: no repeat runs', async () => {
    const { clock, stores } = twoDaemons();
    let drops = 1;
    // The statement committed, then the connection dropped before its reply reached the daemon.
    const dropping: IdempotencyStore = {
      ...stores[0]!,
      remember: async (...args) => {
        await stores[0]!.remember(...args);
        if (drops-- > 0) throw new Error('Connection terminated unexpectedly');
      },
    };
    let next!: () => void;
    const onA = createIdempotentRunner(dropping, () => clock.now(), {
      pause: () => new Promise<void>((r) => (next = r)),
    });
    const onB = createIdempotentRunner(stores[1]!, () => clock.now());
    let runs = 0;
    const run = async () => `event ${++runs}`;
    assert.equal(await onA('emit', 'k', { type: 'x' }, run), { answer: 'event 1', replayed: false });
    assert.equal(await onB('emit', 'k', { type: 'x' }, run), { answer: 'event 1', replayed: true });
    next();
    await onA.settled();
    assert.is(onA.unstored(), 0);
    assert.is(await stores[1]!.get('emit\0k', clock.now()).then((x) => x?.answer), 'event 1');
    assert.is(runs, 1);
  });

  test('a daemon closing makes its last try at once', async () => {
    const { clock, stores } = twoDaemons();
    const onA = createIdempotentRunner(stores[0]!, () => clock.now());
    const refusal = await refuseAnswers(`cmp_idem_${company_}`);
    assert.equal(await onA('emit', 'k', { type: 'x' }, async () => 'ran'), { answer: 'ran', replayed: false });
    await refusal.lift();
    // The next try is due in 25 ms; closing does not wait for it, it tries now.
    await onA.close();
    assert.is(onA.unstored(), 0);
    assert.is(await stores[1]!.get('emit\0k', clock.now()).then((x) => x?.answer), 'ran');
  });

  test('a key held on a daemon of the new schema reads as another request to a daemon older than it', async () => {
    const { clock, stores } = twoDaemons();
    const fingerprint = createHash('sha256').update('r').digest('base64url');
    assert.ok('token' in (await stores[0]!.claim!('emit\0legacy', fingerprint, clock.now())));
    // What a daemon before migration 106 reads: every row as an answer.
    const { rows } = await daemons.a.pool.query('SELECT doc FROM svc_rt_idempotency WHERE key = $1', [
      Buffer.from('emit\0legacy'),
    ]);
    assert.is(rows.length, 1);
    assert.is.not(rows[0].doc.fingerprint, fingerprint, 'an old daemon would replay an answer that does not exist');
  });

  test.run();
}
