import * as z from 'zod';
import { boundedJson } from '../../http/json-depth.js';
import { storableText } from '../../../shared/schemas/storable-text.js';

/**
 * The shapes of creating and changing a configured event. Fields with their own checks (matcher,
 * retry, schedule_policy, debounce, throttle, concurrency) pass through as unknown here and are
 * checked, with their own error codes, by matchers.ts, policies.ts and flow/flow-schema.ts.
 */
const toolCallSchema = z.strictObject({
  tool: z.string().min(1).max(100),
  args: z.record(z.string(), boundedJson).default({}),
});
const toolCallsSchema = z.array(toolCallSchema).max(50);
const scopeId = z.string().min(1).max(200).check(storableText);

export const newConfiguredSchema = z.object({
  type: z.string().min(1).max(200),
  tool_calls: toolCallsSchema.default([]),
  // The scope a configured event matches on: ids, compared with the event log's columns.
  agent_id: scopeId.nullable().optional(),
  session_id: scopeId.nullable().optional(),
  quest_id: scopeId.nullable().optional(),
  enabled: z.boolean().optional(),
  matcher: z.unknown().optional(),
  timezone: z.string().min(1).max(100).nullable().optional(),
  retry: z.unknown().optional(),
  schedule_policy: z.unknown().optional(),
  debounce: z.unknown().optional(),
  throttle: z.unknown().optional(),
  concurrency: z.unknown().optional(),
});

export const configuredChangeSchema = z.object({
  tool_calls: toolCallsSchema.optional(),
  matcher: z.unknown().optional(),
  enabled: z.boolean().optional(),
  retry: z.unknown().optional(),
  schedule_policy: z.unknown().optional(),
  debounce: z.unknown().optional(),
  throttle: z.unknown().optional(),
  concurrency: z.unknown().optional(),
});
