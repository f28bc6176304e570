import type { ApiClient } from '../api-client.js';
import type { Made } from './references.js';
import type { SeedKind } from './seed-file.js';
import type { SeedState } from './seed-state.js';

/** How seeding talks to the daemon: the operator surface, and the public API as a given user. */
export interface SeedApi {
  operator: ApiClient;
  as(token: string): ApiClient;
}

/** One line of the report: what a local name became, and whether this run made it. */
export interface SeedLine {
  kind: SeedKind;
  name: string;
  id: string;
  created: boolean;
  /** A key's secret: only when this run made the key (the daemon shows it once). */
  secret?: string;
}

export interface SeedRun {
  api: SeedApi;
  state: SeedState;
  made: Made;
  /** A seeded user's acting session, by the user's id. */
  tokens: Map<string, string>;
  lines: SeedLine[];
}

/** The acting client of a Company's owner: every Company-side entry is made as its owner. */
export function ownerApi(run: SeedRun, company: Record<string, unknown>): ApiClient {
  return run.api.as(run.tokens.get(String(company.owner_id))!);
}
