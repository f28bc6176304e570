import type { Middleware } from 'koa';
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
export const refuseUnstorableUrl: Middleware = (ctx, next) => {
  const fields: { field: string; message: string }[] = [];
  // The raw path: a NUL can only arrive percent-encoded (Node's parser refuses a raw one).
  if (/%00/i.test(ctx.path)) fields.push({ field: '(path)', message: 'must not contain a NUL character (%00)' });
  for (const [name, value] of Object.entries(ctx.query)) {
    const problem = [name, ...[value ?? []].flat()].map(storableTextProblem).find((p) => p !== null);
    if (problem) fields.push({ field: storableTextProblem(name) ? '(query)' : name, message: problem });
  }
  if (fields.length === 0) return next();
  const first = fields[0]!;
  throw new ApiError(400, ErrorCode.validationFailed, `${first.field}: ${first.message}`, { fields });
};
