import { ErrorCode } from '../../shared/errors.js';
import { conflict, forbidden, notFound, type ApiError } from '../http/api-error.js';

/**
 * The expected "no" answers about Companies, as domain errors: the services below the routes throw
 * them, and only the HTTP side (`companyHttpError`) turns them into statuses.
 */
export class CompanyRefused extends Error {
  constructor(
    readonly reason: 'name_taken' | 'not_found' | 'not_yours',
    /** The name or id the caller gave. */
    readonly ref: string,
  ) {
    super(`company ${reason}: ${ref}`);
    this.name = 'CompanyRefused';
  }
}

export const unknownCompany = (ref: string): ApiError =>
  notFound(`No Company '${ref}' exists. List yours with GET /api/companies.`, ErrorCode.companyNotFound);

export const notYours = (ref: string): ApiError =>
  forbidden(`Company '${ref}' is not one of yours.`, ErrorCode.companyForbidden);

const nameTaken = (name: string): ApiError =>
  conflict(`You already have a Company named '${name}'.`, ErrorCode.companyNameTaken);

/** The HTTP answer of a CompanyRefused; any other error is returned as it is, to be rethrown. */
export function companyHttpError(err: unknown): unknown {
  if (!(err instanceof CompanyRefused)) return err;
  if (err.reason === 'name_taken') return nameTaken(err.ref);
  return err.reason === 'not_yours' ? notYours(err.ref) : unknownCompany(err.ref);
}

/** Runs a Company service call and answers its refusals with their HTTP errors. */
export async function answeringCompanyRefusals<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (err) {
    throw companyHttpError(err);
  }
}
