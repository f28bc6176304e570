import { KNOWN_PREFIXES } from '../../shared/patterns.js';

/**
 * Which pattern prefixes something actually emits. A configured event whose prefix is not
 * registered is shown as `armed` and never fires (spec §3.5): it waits for its emitter.
 * The runtime registers `session` and `context` (its lifecycle); the scheduler, detectors,
 * channels and questions (issue 7) register theirs when they are wired in.
 */
export interface EmitterRegistry {
  register(prefix: string): void;
  has(prefix: string): boolean;
  list(): string[];
}

export function createEmitterRegistry(initial: string[] = []): EmitterRegistry {
  const prefixes = new Set<string>();
  const registry: EmitterRegistry = {
    register(prefix) {
      if (!(KNOWN_PREFIXES as readonly string[]).includes(prefix)) throw new Error(`unknown event prefix '${prefix}'`);
      prefixes.add(prefix);
    },
    has: (prefix) => prefixes.has(prefix),
    list: () => [...prefixes].sort(),
  };
  initial.forEach((p) => registry.register(p));
  return registry;
}

/** The runtime's own lifecycle emitters (sessions, context budget). */
export const RUNTIME_EMITTERS = ['session', 'context'];

/** The daemon's registry: every runtime reads it, so an emitter registered later arms nothing anew. */
export const defaultEmitters: EmitterRegistry = createEmitterRegistry(RUNTIME_EMITTERS);
