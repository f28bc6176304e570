import { join } from 'node:path';
import { Doc } from '../store/doc.js';
import type { Agent, ConfiguredEvent, Firing, Quest, RuntimeSession } from './services.js';

/** One Company's runtime records, in one lowdb document (`runtime.json` in its data folder). */
export interface RuntimeData {
  agents: Record<string, Agent>;
  sessions: Record<string, RuntimeSession>;
  quests: Record<string, Quest>;
  configured: Record<string, ConfiguredEvent>;
}

/**
 * What each event fired, kept for trace. A document of its own (`firings.json`) so that the
 * frequent writes of dispatch do not rewrite the agents, sessions and quests each time.
 */
export interface FiringsData {
  firings: Record<string, Firing[]>;
}

export const runtimeDefaults = (): RuntimeData => ({ agents: {}, sessions: {}, quests: {}, configured: {} });
export const firingsDefaults = (): FiringsData => ({ firings: {} });

export interface RuntimeDocs {
  runtime: Doc<RuntimeData>;
  firings: Doc<FiringsData>;
}

export async function openRuntimeDocs(kind: 'memory' | 'file', dir: string): Promise<RuntimeDocs> {
  if (kind === 'memory') return { runtime: await Doc.memory(runtimeDefaults()), firings: await Doc.memory(firingsDefaults()) };
  return {
    runtime: await Doc.file(join(dir, 'runtime.json'), runtimeDefaults()),
    firings: await Doc.file(join(dir, 'firings.json'), firingsDefaults()),
  };
}
