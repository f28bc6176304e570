import * as z from 'zod';
import { boundedJson } from '../../http/json-depth.js';

/**
 * The shapes of creating and changing a configured event. Fields with their own checks (matcher,
 * retry, schedule_policy) pass through as unknown here and are checked, with their own error codes,
 * by matchers.ts and policies.ts.
 */
const toolCallSchema = z.object({
  tool: z.string().min(1).max(100),
  args: z.record(z.string(), boundedJson).default({}),
});
const toolCallsSchema = z.array(toolCallSchema).max(50);

export const newConfiguredSchema = z.object({
  type: z.string().min(1).max(200),
  tool_calls: toolCallsSchema.default([]),
  agent_id: z.string().min(1).max(200).nullable().optional(),
  session_id: z.string().min(1).max(200).nullable().optional(),
  quest_id: z.string().min(1).max(200).nullable().optional(),
  enabled: z.boolean().optional(),
  matcher: z.unknown().optional(),
  timezone: z.string().min(1).max(100).nullable().optional(),
  retry: z.unknown().optional(),
  schedule_policy: z.unknown().optional(),
});

export const configuredChangeSchema = z.object({
  tool_calls: toolCallsSchema.optional(),
  matcher: z.unknown().optional(),
  enabled: z.boolean().optional(),
  retry: z.unknown().optional(),
  schedule_policy: z.unknown().optional(),
});
