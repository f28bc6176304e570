import { UsageError } from '../errors.js';
import { parseDuration } from '../../shared/durations.js';
import { linked, resolveReferences } from './references.js';
import { isObject } from './seed-file.js';
import { renewSeedSessions } from './apply-seed.js';
import type { SeedRun } from './seed-run.js';
import { logEnd, observeSince, type CompanyCalls, type Observed } from './observations.js';

export interface StepResult {
  index: number;
  kind: 'trigger' | 'advance' | 'expect';
  label: string;
  ok: boolean;
  /** One readable line per miss: what was expected, what happened. */
  problems: string[];
}

/**
 * Runs a scenario's steps against the seeded daemon, in order: `trigger` an event, `advance` the
 * clock, `expect` what happened since the previous expectation (or since seeding). Every step runs
 * even after a miss, so one run shows every miss.
 */
export async function runSteps(run: SeedRun, steps: unknown[], defaultCompany: unknown): Promise<StepResult[]> {
  const results: StepResult[] = [];
  const companyOf = (name: unknown, where: string): CompanyCalls => {
    const company = linked(run.made, 'companies', name ?? defaultCompany, where);
    return { companyId: String(company.id), api: () => run.api.as(run.tokens.get(String(company.owner_id))!) };
  };
  const checkpoints = new Map<string, string | null>();
  for (const company of Object.values(run.made.companies)) {
    const c = companyOf(company.id, 'scenario');
    checkpoints.set(c.companyId, await logEnd(c));
  }
  for (const [i, raw] of steps.entries()) {
    const where = `steps[${i}]`;
    if (!isObject(raw) || Object.keys(raw).length !== 1)
      throw new UsageError(`${where}: a step is one of { "trigger": … }, { "advance": "2h" }, { "expect": … }`);
    const [kind, body] = Object.entries(resolveReferences(raw, run.made, where) as Record<string, unknown>)[0]!;
    if (kind === 'trigger') {
      if (!isObject(body) || typeof body.type !== 'string') throw new UsageError(`${where}.trigger needs a "type"`);
      const { company, ...event } = body;
      const c = companyOf(company, `${where}.trigger.company`);
      await c.api().post('/api/events/trigger', event, { headers: { 'X-Company': c.companyId } });
      results.push({ index: i + 1, kind, label: `trigger ${body.type}`, ok: true, problems: [] });
    } else if (kind === 'advance') {
      const ms = typeof body === 'string' ? parseDuration(body) : null;
      if (ms === null)
        throw new UsageError(`${where}.advance must be a length of time such as "2h", not ${JSON.stringify(body)}`);
      await run.api.operator.post('/api/dev/clock', { advance_ms: ms });
      // The acting sessions live ten minutes on the daemon's clock, which just moved.
      await renewSeedSessions(run);
      results.push({ index: i + 1, kind, label: `advance ${body}`, ok: true, problems: [] });
    } else if (kind === 'expect') {
      if (!isObject(body)) throw new UsageError(`${where}.expect must be an object`);
      const { company, ...expected } = body;
      const c = companyOf(company, `${where}.expect.company`);
      const seen = await observeSince(c, checkpoints.get(c.companyId) ?? null);
      checkpoints.set(c.companyId, seen.cursor);
      const problems = compare(run, expected, seen, `${where}.expect`);
      results.push({ index: i + 1, kind, label: 'expect', ok: problems.length === 0, problems });
    } else throw new UsageError(`${where}: unknown step '${kind}' (trigger, advance or expect)`);
  }
  return results;
}

/** Each expectation against what was seen; a miss is one line saying what was expected and what happened. */
function compare(run: SeedRun, expected: Record<string, unknown>, seen: Observed, where: string): string[] {
  const problems: string[] = [];
  const idOf = (name: string, at: string) => String(linked(run.made, 'events', name, at).id);
  const reasonsOf = (id: string) => [...(seen.notFired.get(id) ?? [])].join(', ');
  for (const key of Object.keys(expected))
    if (!['fired', 'not_fired', 'quests'].includes(key))
      throw new UsageError(`${where}: unknown expectation '${key}' (fired, not_fired, quests)`);
  for (const name of listOf(expected.fired, `${where}.fired`)) {
    const id = idOf(name, `${where}.fired`);
    if (!seen.fired.has(id))
      problems.push(
        `fired: - ${name}  expected to fire; it did not${reasonsOf(id) ? ` (passed over: ${reasonsOf(id)})` : ''}`,
      );
  }
  if (expected.not_fired !== undefined) {
    if (!isObject(expected.not_fired)) throw new UsageError(`${where}.not_fired must map event names to reasons`);
    for (const [name, reason] of Object.entries(expected.not_fired)) {
      const id = idOf(name, `${where}.not_fired`);
      if (seen.fired.has(id)) problems.push(`not_fired: - ${name}  expected not to fire (${reason}); it fired`);
      else if (reason !== '*' && !seen.notFired.get(id)?.has(String(reason)))
        problems.push(
          `not_fired: - ${name}  expected reason ${reason}; got ${reasonsOf(id) || 'not considered at all'}`,
        );
    }
  }
  for (const title of listOf(expected.quests, `${where}.quests`))
    if (!seen.quests.includes(title))
      problems.push(
        `quests: - "${title}"  expected; the quests are ${seen.quests.map((q) => `"${q}"`).join(', ') || 'none'}`,
      );
  return problems;
}

function listOf(value: unknown, where: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
    throw new UsageError(`${where} must be a list of names`);
  return value as string[];
}
