import { createMemorySpace } from '../engine/memory-space.js';
import { openJournalSpace } from '../journal/index.js';
import type { RuntimeStores } from '../runtime-types.js';
import { importLegacyDocuments } from './import-legacy.js';
import { createRuntimeStores, type RuntimeStoreOptions } from './index.js';

export interface OpenedRuntimeStores {
  stores: RuntimeStores;
  /** Lines for the daemon log: journal recovery, and legacy documents imported at this start. */
  notes: string[];
}

/**
 * A Company runtime's stores: in memory (tests), or the Company's journal `runtime/` in its
 * data folder, with the previous release's documents imported on the first start.
 */
export async function openRuntimeStores(
  storage: 'memory' | 'file',
  dir: string,
  options: RuntimeStoreOptions & { now: () => string },
): Promise<OpenedRuntimeStores> {
  if (storage === 'memory') return { stores: createRuntimeStores(createMemorySpace(), options), notes: [] };
  const space = await openJournalSpace(dir, { name: 'runtime' });
  try {
    const stores = createRuntimeStores(space, options);
    const imported = await importLegacyDocuments(space, dir, options.now);
    return { stores, notes: [...space.recovery, ...imported] };
  } catch (err) {
    await space.close();
    throw err;
  }
}

/** Memory stores on their own (tests, benchmarks). */
export function createMemoryRuntimeStores(options: RuntimeStoreOptions = {}): RuntimeStores {
  return createRuntimeStores(createMemorySpace(), options);
}

/** The journal stores of a Company folder on their own, upgraded like a runtime's (tests, benchmarks). */
export async function openJournalRuntimeStores(dir: string, options: RuntimeStoreOptions = {}): Promise<RuntimeStores> {
  return (await openRuntimeStores('file', dir, { ...options, now: () => new Date().toISOString() })).stores;
}
