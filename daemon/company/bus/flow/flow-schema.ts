import * as z from 'zod';
import { ErrorCode } from '../../../../shared/errors.js';
import type { ConcurrencyPolicy, DebouncePolicy, ThrottlePolicy } from '../../../../shared/runtime-records.js';
import { invalid } from '../../../domain-error.js';
import { checkReferences } from '../references.js';

const DAY = 86_400_000;
const ms = (what: string, max: number, maxText: string) =>
  z
    .number(`${what} must be a whole number of milliseconds`)
    .int(`${what} must be a whole number of milliseconds`)
    .min(1, 'must be at least 1 (milliseconds)')
    .max(max, `must be at most ${max} (${maxText})`);
const count = (max: number) =>
  z
    .number('must be a whole number')
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(max, `must be at most ${max}`);
/** A template over the event, like a tool call's args: `{{event.agent_id}}`, `{{event.content.repo}}`. */
const key = z.string('must be a template such as "{{event.agent_id}}"').min(1).max(500).nullable().optional();

const debounceSchema = z
  .object({
    key,
    period_ms: ms('period_ms', DAY, '24 h'),
    max_wait_ms: ms('max_wait_ms', 7 * DAY, '7 days')
      .nullable()
      .optional(),
  })
  .strict();
const throttleSchema = z
  .object({ key, limit: count(100_000), period_ms: ms('period_ms', 30 * DAY, '30 days') })
  .strict();
const concurrencySchema = z.object({ key, limit: count(1_000) }).strict();

export interface FlowPolicies {
  debounce?: DebouncePolicy | null;
  throttle?: ThrottlePolicy | null;
  concurrency?: ConcurrencyPolicy | null;
}

const refuse = (message: string) => invalid(message, ErrorCode.invalidFlowControl);

function checkOne<T extends { key?: string | null }>(field: string, schema: z.ZodType<T>, input: unknown): T | null {
  if (input === undefined || input === null) return null;
  if (typeof input !== 'object' || Array.isArray(input))
    throw refuse(`${field}: must be an object, e.g. ${EXAMPLES[field]}, or null for none`);
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = [field, ...issue.path].join('.');
    if (issue.code === 'unrecognized_keys')
      throw refuse(`${where}: unknown field ${issue.keys.map((k) => `'${k}'`).join(', ')}; use ${FIELDS[field]}`);
    throw refuse(`${where}: ${issue.message}`);
  }
  const policy = parsed.data;
  if (policy.key) {
    const { problem } = checkReferences(policy.key);
    if (problem) throw refuse(`${field}.key: ${problem.message}`);
    if (!policy.key.includes('{{'))
      throw refuse(
        `${field}.key: '${policy.key}' names no field of the event, so every event would share one bucket; use a template such as "{{event.agent_id}}", or leave key out`,
      );
  }
  return policy;
}

const EXAMPLES: Record<string, string> = {
  debounce: '{"period_ms":60000}',
  throttle: '{"limit":5,"period_ms":3600000}',
  concurrency: '{"limit":1}',
};
const FIELDS: Record<string, string> = {
  debounce: 'key, period_ms, max_wait_ms',
  throttle: 'key, limit, period_ms',
  concurrency: 'key, limit',
};

/**
 * The flow-control fields of a configured event as stored, or a 400 `invalid_flow_control` naming
 * the field. `undefined` in: left as it is (a change); `null` in: none.
 */
export function checkFlow(input: { debounce?: unknown; throttle?: unknown; concurrency?: unknown }): FlowPolicies {
  const out: FlowPolicies = {};
  if (input.debounce !== undefined) {
    const d = checkOne('debounce', debounceSchema, input.debounce) as DebouncePolicy | null;
    if (d?.max_wait_ms != null && d.max_wait_ms < d.period_ms)
      throw refuse(
        `debounce.max_wait_ms: ${d.max_wait_ms} is below period_ms ${d.period_ms}; the longest wait cannot be shorter than the quiet it waits for`,
      );
    out.debounce = d;
  }
  if (input.throttle !== undefined) out.throttle = checkOne('throttle', throttleSchema, input.throttle);
  if (input.concurrency !== undefined) out.concurrency = checkOne('concurrency', concurrencySchema, input.concurrency);
  return out;
}
