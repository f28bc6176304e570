import { ErrorCode } from '../../../shared/errors.js';
import { invalid } from '../../domain-error.js';

/**
 * The action-style tools take one flat object (clients render a flat form best), so which fields an
 * action needs is checked here, with the answer a model can act on.
 */
export function requireFields<T extends Record<string, unknown>, K extends keyof T & string>(
  args: T,
  action: string,
  ...fields: K[]
): T & Required<Pick<T, K>> {
  const missing = fields.filter((f) => args[f] === undefined || args[f] === null);
  if (missing.length > 0) {
    throw invalid(
      `Action '${action}' needs ${missing.map((f) => `'${f}'`).join(' and ')}.`,
      ErrorCode.validationFailed,
    );
  }
  return args as T & Required<Pick<T, K>>;
}
