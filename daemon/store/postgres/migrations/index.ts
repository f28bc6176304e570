import { initialSchema } from './001-initial.js';

/**
 * The schema's history, oldest first. A released migration is never edited: a change is a new
 * entry with the next version, so every database reaches the same schema by the same steps.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [{ version: 1, name: 'initial', sql: initialSchema }];
