import type { Context } from 'koa';
import { ErrorCode } from '../../shared/errors.js';
import { invalid } from '../domain-error.js';

/**
 * Prefixes that are not Company runtime routes (spec §4.6): they need no Company and the
 * gateway never touches them, so an unknown path under them stays an ordinary 404.
 */
const NON_TENANT_PREFIXES = [
  '/api/auth',
  '/api/me',
  '/api/keys',
  '/api/account',
  '/api/companies',
  '/api/billing',
  '/api/dev',
];

/** Every other `/api/<something>` path belongs to a Company runtime. The router matches case-insensitively, so this does too. */
export function isTenantPath(path: string): boolean {
  const p = path.toLowerCase();
  if (!p.startsWith('/api/') || p.length === '/api/'.length) return false;
  if (p.startsWith('/api/mcp')) return false;
  return !NON_TENANT_PREFIXES.some((prefix) => p === prefix || p.startsWith(prefix + '/'));
}

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
