import { ErrorCode } from '../../shared/errors.js';
import { conflicting, type DomainError, forbidden, missing } from '../domain-error.js';

/**
 * The expected "no" answers about Companies, as domain errors: the Company services and the
 * tenant selection throw them, and only the HTTP error renderer turns them into statuses.
 */
export const unknownCompany = (ref: string): DomainError =>
  missing(`No Company '${ref}' exists. List yours with GET /api/companies.`, ErrorCode.companyNotFound);

/** Tenant isolation: the Company exists, but not for this caller. */
export const notYours = (ref: string): DomainError =>
  forbidden(`Company '${ref}' is not one of yours.`, ErrorCode.companyForbidden);

export const nameTaken = (name: string): DomainError =>
  conflicting(`You already have a Company named '${name}'.`, ErrorCode.companyNameTaken);

export const ambiguous = (name: string): DomainError =>
  conflicting(
    `You belong to more than one Company named '${name}': name it by its id (GET /api/companies lists them).`,
    ErrorCode.ambiguousCompany,
  );
