import { createMemorySpace } from '../engine/memory-space.js';
import { openJournalSpace } from '../journal/index.js';
import type { RuntimeStores } from '../runtime-types.js';
import { refuseRetiredLayout, retiredCompanyFile } from '../old-layouts.js';
import { createRuntimeStores, type RuntimeStoreOptions } from './index.js';

export interface OpenedRuntimeStores {
  stores: RuntimeStores;
  /** Lines for the daemon log: what the journal recovered at open. */
  notes: string[];
}

/**
 * A Company runtime's stores: in memory (tests), or the Company's journal `runtime/` in its
 * data folder (a folder holding a retired layout's files is refused: old-layouts.ts).
 */
export async function openRuntimeStores(
  storage: 'memory' | 'file',
  dir: string,
  options: RuntimeStoreOptions,
): Promise<OpenedRuntimeStores> {
  if (storage === 'memory') return { stores: createRuntimeStores(createMemorySpace(), options), notes: [] };
  refuseRetiredLayout(retiredCompanyFile(dir));
  const space = await openJournalSpace(dir, { name: 'runtime' });
  return { stores: createRuntimeStores(space, options), notes: space.recovery };
}

/** Memory stores on their own (tests, benchmarks). */
export function createMemoryRuntimeStores(options: RuntimeStoreOptions = {}): RuntimeStores {
  return createRuntimeStores(createMemorySpace(), options);
}

/** The journal stores of a Company folder on their own, opened as a runtime's (tests, benchmarks). */
export async function openJournalRuntimeStores(dir: string, options: RuntimeStoreOptions = {}): Promise<RuntimeStores> {
  return (await openRuntimeStores('file', dir, options)).stores;
}
