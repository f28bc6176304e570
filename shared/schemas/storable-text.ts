import * as z from 'zod/mini';

/**
 * Text that names or finds a record (an id, an event type, a filter) must be text every store can
 * hold exactly. PostgreSQL's text type refuses NUL (U+0000) outright, so a NUL that reached a
 * column or a WHERE failed the whole query; a lone surrogate (half of a UTF-16 pair, which a JSON
 * `\ud800` escape can carry) has no UTF-8 form, so the driver sends U+FFFD and two different ids
 * would meet. Refusing both where such a value comes in gives one answer, a 400, on every store.
 * Free text that is only stored (names, titles, messages, event content) is not checked: the
 * stores keep it exactly (PostgreSQL inside json, where `\u0000` stays escaped).
 */
export function storableTextProblem(value: string): string | null {
  if (value.includes('\u0000')) return 'must not contain a NUL character (U+0000)';
  if (LONE_SURROGATE.test(value)) return 'must not contain a lone surrogate (half of a UTF-16 pair)';
  return null;
}

// Without the `u` flag the pattern sees UTF-16 code units, so a paired surrogate is two units
// that the lookarounds accept and a lone one is what is left.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The zod check of `storableTextProblem`, for the schemas of ids and filters (classic or mini zod). */
export const storableText = z.superRefine((value: string, ctx) => {
  const problem = storableTextProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
