import * as z from 'zod';
import { ErrorCode } from '../../../shared/errors.js';
import { invalid, parseInput } from '../../domain-error.js';
import type { ConfiguredEvent, EventRow, Matcher } from '../company-services.js';

/**
 * Whether a configured event that matched by pattern and scope should fire for this event.
 * Dispatch asks this hook, so the detector engine (detectors/matcher-engine.ts) can swap in predicated and window
 * kinds without touching dispatch.
 */
export interface MatcherHook {
  allows(cfg: ConfiguredEvent, event: EventRow): boolean | Promise<boolean>;
  /** Kinds this hook can evaluate; creating a configured event with another kind is refused. */
  supports(kind: Matcher['kind']): boolean;
  /** After `allows` said no: whether a window was cooling down (`cooldown`) or the event did not match. */
  why?(cfg: ConfiguredEvent, event: EventRow): 'matcher' | 'cooldown' | Promise<'matcher' | 'cooldown'>;
  /** Drops per-event state (windows) when a configured event's matcher changes or it is deleted. */
  forget?(configuredId: string): void | Promise<void>;
}

const matcherSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('exact'), agent_id: z.string().min(1).max(200) }).strict(),
  z
    .object({
      kind: z.literal('predicated'),
      field: z.string().min(1).max(200),
      regex: z.string().min(1).max(1000),
      flags: z.string().max(10).optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('window'),
      count: z.number().int().min(1),
      within_ms: z.number().int().min(1),
      group_by: z.enum(['agent', 'session']).nullable().optional(),
      cooldown_ms: z.number().int().min(0).optional(),
    })
    .strict(),
]);

/** The default: no matcher or an `exact` one (the event is about that agent). */
export const exactMatcher: MatcherHook = {
  allows: (cfg, event) => {
    const m = cfg.matcher;
    if (!m) return true;
    if (m.kind === 'exact') return event.agent_id === m.agent_id;
    return false;
  },
  supports: (kind) => kind === 'exact',
};

/** Checks a matcher's structure, then refuses kinds the installed hook cannot evaluate (400, never stored). */
export function parseMatcher(input: unknown, hook: MatcherHook): Matcher | null {
  if (input === undefined || input === null) return null;
  const matcher = parseInput(matcherSchema, input) as Matcher;
  if (!hook.supports(matcher.kind)) {
    throw invalid(
      `matcher: the '${matcher.kind}' kind is not available on this daemon yet; use no matcher or {"kind":"exact","agent_id":"…"}.`,
      ErrorCode.matcherUnsupported,
    );
  }
  return matcher;
}
