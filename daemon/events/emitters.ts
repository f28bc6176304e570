import { KNOWN_PREFIXES } from '../../shared/patterns.js';

/**
 * Which pattern prefixes something actually emits. A configured event whose prefix is not
 * registered is shown as `armed` and never fires (spec §3.5): it waits for its emitter.
 * The runtime registers `session` and `context` (its lifecycle); the scheduler, detectors,
 * channels and questions (issue 7) are WIRED_EMITTERS. Tests build a smaller registry to see `armed`.
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

/**
 * The emitters of issue 7, wired into every Company runtime (company-runtime.ts): the minute
 * scheduler, the inbound webhook route, the cause reporter (detectors) and the question desk.
 */
export const WIRED_EMITTERS = ['schedule', 'webhook', 'loop', 'guardrail', 'graph_guardrail', 'shell', 'agent', 'ideas', 'question'];

/** The daemon's registry: every runtime reads it. With issue 7 every known prefix has an emitter. */
export const defaultEmitters: EmitterRegistry = createEmitterRegistry([...RUNTIME_EMITTERS, ...WIRED_EMITTERS]);
