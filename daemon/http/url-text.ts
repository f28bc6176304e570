import type { Context } from 'koa';
import { ErrorCode } from '../../shared/errors.js';
import { storableTextProblem } from '../../shared/schemas/storable-text.js';
import { ApiError } from './api-error.js';

/**
 * Refuses a URL whose path or query carries text no store can hold (a NUL, `%00`) with one 400
 * for every route, before any route reads it. What a URL holds is ids, filters, cursors and
 * tokens, none of which can contain a NUL; PostgreSQL fails any query that compares text with one,
 * where the JSON store would simply match nothing, so only a refusal answers alike on both.
 * Checked here once rather than in each route's schema, so a new route or filter is covered
 * without anyone remembering to. A URL cannot carry a lone surrogate: percent-decoding turns
 * invalid UTF-8 into U+FFFD, which is ordinary text.
 */
export function refuseUnstorableUrl(ctx: Context): void {
  const fields: { field: string; message: string }[] = [];
  // The raw path: a NUL can only arrive percent-encoded (Node's parser refuses a raw one). `%00` has
  // no letter, so this plain search is the case-insensitive match it looks like.
  if (ctx.path.includes('%00')) fields.push({ field: '(path)', message: 'must not contain a NUL character (%00)' });
  // No query string, nothing to check: most requests skip Koa's query parse entirely.
  if (ctx.querystring) {
    for (const [name, value] of Object.entries(ctx.query)) {
      const problem = [name, ...[value ?? []].flat()].map(storableTextProblem).find((p) => p !== null);
      if (problem) fields.push({ field: storableTextProblem(name) ? '(query)' : name, message: problem });
    }
  }
  if (fields.length === 0) return;
  const first = fields[0]!;
  throw new ApiError(400, ErrorCode.validationFailed, `${first.field}: ${first.message}`, { fields });
}
