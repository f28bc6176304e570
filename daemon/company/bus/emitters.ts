import { KNOWN_PREFIXES } from '../../../shared/patterns.js';

/**
 * Which pattern prefixes something actually emits. A configured event whose prefix is not
 * registered is shown as `armed` and never fires (spec §3.5): it waits for its emitter.
 * The runtime registers `session` and `context` (its lifecycle); the scheduler, detectors,
 * channels and questions are WIRED_EMITTERS. Tests build a smaller registry to see `armed`.
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
  initial.forEach((p) => {
    registry.register(p);
  });
  return registry;
}

/** The runtime's own lifecycle emitters (sessions, context budget). */
export const RUNTIME_EMITTERS = ['session', 'context'];

/**
 * The emitters wired into every Company runtime (emitter-wiring.ts, from open-company.ts): the minute
 * scheduler, the inbound webhook route, the cause reporter (detectors) and the question desk.
 */
const WIRED_EMITTERS = [
  'schedule',
  'webhook',
  'loop',
  'guardrail',
  'graph_guardrail',
  'shell',
  'agent',
  'ideas',
  'question',
];

/** The daemon's registry: every runtime reads it. Every known prefix has an emitter. */
export const defaultEmitters: EmitterRegistry = createEmitterRegistry([...RUNTIME_EMITTERS, ...WIRED_EMITTERS]);

/**
 * The names each emitter produces under its prefix; absent: any name (a cron expression, a
 * channel). A known prefix with an unknown name (`session:stoped`, `context:budget_exceeded`) is
 * shown armed, with these names in the answer, instead of silently never firing.
 */
const EMITTED_NAMES: Readonly<Record<string, readonly string[]>> = {
  session: [
    'start',
    'execution_start',
    'quest_start',
    'quest_end',
    'quest_result',
    'step_start',
    'stopped',
    'first_execution_complete',
  ],
  context: ['budget:exceeded', 'compaction:started', 'compaction:done', 'compaction:failed'],
  loop: ['detected'],
  guardrail: ['violation'],
  graph_guardrail: ['high_impact'],
  shell: ['command_failed'],
  agent: ['premature_completion'],
  ideas: ['threshold_reached'],
  question: ['asked', 'answered'],
};

/** Why a pattern never fires on this registry, with the names that do fire under its prefix; null when it can fire. */
export function whyArmed(
  registry: EmitterRegistry,
  type: string,
): { reason: string; names_that_fire: string[] } | null {
  const colon = type.indexOf(':');
  const prefix = colon < 0 ? type : type.slice(0, colon);
  const name = type.slice(colon + 1);
  if (!registry.has(prefix)) return { reason: `nothing on this daemon emits '${prefix}:' events`, names_that_fire: [] };
  const names = EMITTED_NAMES[prefix];
  if (!names || names.includes(name)) return null;
  return { reason: `no emitter produces '${type}'`, names_that_fire: names.map((n) => `${prefix}:${n}`) };
}
