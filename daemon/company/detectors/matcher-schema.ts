import * as z from 'zod';
import type { Matcher } from '../company-services.js';
import { fieldPathProblem } from './field-path.js';
import { regexProblem } from './regex-safety.js';

/**
 * Validation of a detector's matcher for the create route (and the events tool): zod for shape,
 * then the checks zod cannot express (field path, regex safety). Limits keep window state bounded.
 */
const MAX_WINDOW_COUNT = 1_000;
const MAX_WINDOW_MS = 7 * 24 * 3600_000;

const id = z.string().min(1).max(128);

const exact = z.strictObject({ kind: z.literal('exact'), agent_id: id });

const predicated = z
  .strictObject({
    kind: z.literal('predicated'),
    field: z.string().min(1).max(256),
    regex: z.string(),
    flags: z.string().max(4).optional(),
  })
  .superRefine((m, ctx) => {
    const pathProblem = fieldPathProblem(m.field);
    if (pathProblem) ctx.addIssue({ code: 'custom', path: ['field'], message: pathProblem });
    const problem = regexProblem(m.regex, m.flags ?? '');
    if (problem) ctx.addIssue({ code: 'custom', path: ['regex'], message: problem });
  });

const window = z.strictObject({
  kind: z.literal('window'),
  count: z.number().int().min(2).max(MAX_WINDOW_COUNT),
  within_ms: z.number().int().min(1_000).max(MAX_WINDOW_MS),
  group_by: z.enum(['agent', 'session']).nullable().optional(),
  cooldown_ms: z.number().int().min(0).max(MAX_WINDOW_MS).optional(),
});

const matcherSchema = z.discriminatedUnion('kind', [exact, predicated, window]);

export type MatcherCheck = { ok: true; matcher: Matcher } | { ok: false; reason: string };

/** Checks a matcher from a request; the reason names the field (`matcher.regex: nested repetition…`). */
export function parseMatcher(input: unknown): MatcherCheck {
  if (input !== null && typeof input === 'object' && !('kind' in input)) {
    return { ok: false, reason: "matcher.kind: must be 'exact', 'predicated' or 'window'" };
  }
  const result = matcherSchema.safeParse(input);
  if (result.success) return { ok: true, matcher: result.data as Matcher };
  const issue = result.error.issues[0]!;
  const where = ['matcher', ...issue.path.map(String)].join('.');
  return { ok: false, reason: `${where}: ${issue.message}` };
}
