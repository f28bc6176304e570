import type { Context } from 'koa';
import { ErrorCode } from '../../shared/errors.js';
import { invalid } from '../domain-error.js';

export type SelectorSource = 'X-Company' | 'X-Entity' | 'company_id' | 'trust_id';

export interface CompanySelector {
  id: string;
  source: SelectorSource;
}

/**
 * The Company a request names, in the order of spec §5.2: `X-Company`, then `X-Entity`, then the
 * query `company_id`, then the legacy `trust_id`. The first one present wins; null when none is.
 */
export function readCompanySelector(ctx: Pick<Context, 'get' | 'query'>): CompanySelector | null {
  for (const source of ['X-Company', 'X-Entity'] as const) {
    const value = ctx.get(source).trim();
    if (value) return { id: value, source };
  }
  for (const source of ['company_id', 'trust_id'] as const) {
    const value = ctx.query[source];
    if (Array.isArray(value)) throw invalid(`Give ${source} once, not ${value.length} times.`, ErrorCode.badRequest);
    if (value?.trim()) return { id: value.trim(), source };
  }
  return null;
}

/** Spec §7, exact text: a runtime route called with no Company selection. */
export const companyRequired = () => invalid('X-Company header required', ErrorCode.companyRequired);
