import type { Clock } from '../../clock.js';
import type { ConfiguredEvent, EventRow, Matcher } from '../company-services.js';
import { compileLinear, createBoundedRegex, type BoundedRegex, type LinearRegex } from './bounded-regex.js';
import { parseMatcher, type MatcherCheck } from './matcher-schema.js';
import { readField, textOf } from './field-path.js';
import { regexProblem } from './regex-safety.js';
import { memoryWindows, type WindowStore } from './window-counter.js';

/**
 * The dispatcher asks `allows(cfg, event)` for each configured event whose pattern (and scope)
 * matched an event: the matcher, if any, has the last word. Exact checks the agent; predicated
 * tests a regular expression on one field of `content` (linear time, the whole field); window lets
 * the `count`-th matching event within `within_ms` through once, then cools down.
 */
export interface MatcherEngine {
  allows(cfg: ConfiguredEvent, event: EventRow): Promise<boolean>;
  /** Every kind of `Matcher` (company-services.ts) is evaluated here (the dispatcher's MatcherHook asks). */
  supports(kind: Matcher['kind']): boolean;
  /** The creation-time check (shape, field path, regex safety): a matcher that fails is never stored. */
  check(input: unknown): MatcherCheck;
  why(cfg: ConfiguredEvent, event: EventRow): Promise<'matcher' | 'cooldown'>;
  /** Drops the window state of a deleted configured event. */
  forget(configuredId: string): Promise<void>;
}

export interface MatcherEngineOptions {
  clock: Clock;
  regex?: BoundedRegex;
  /** Where windows count (default this daemon's memory; team mode: the database). */
  windows?: WindowStore;
}

export function createMatcherEngine(options: MatcherEngineOptions): MatcherEngine {
  const regex = options.regex ?? createBoundedRegex();
  const windows = options.windows ?? memoryWindows();
  const compiled = new Map<string, LinearRegex | null>();

  const compile = (m: Extract<Matcher, { kind: 'predicated' }>): LinearRegex | null => {
    const key = `${m.flags ?? ''}/${m.regex}`;
    let re = compiled.get(key);
    if (re === undefined) {
      // Re-screened here too: a matcher stored before a rule tightened must not slip through.
      re = regexProblem(m.regex, m.flags ?? '') === null ? compileLinear(m.regex, m.flags ?? '') : null;
      if (compiled.size >= 1_000) compiled.clear();
      compiled.set(key, re);
    }
    return re;
  };

  const groupOf = (m: Extract<Matcher, { kind: 'window' }>, event: EventRow): string => {
    if (m.group_by === 'agent') return `a:${event.agent_id ?? '-'}`;
    if (m.group_by === 'session') return `s:${event.session_id ?? '-'}`;
    return '*';
  };

  return {
    supports: (kind) => kind === 'exact' || kind === 'predicated' || kind === 'window',
    check: parseMatcher,
    async allows(cfg, event) {
      if (cfg.type !== event.type) return false;
      const m = cfg.matcher;
      if (!m) return true;
      switch (m.kind) {
        case 'exact':
          return event.agent_id === m.agent_id;
        case 'predicated': {
          const re = compile(m);
          const text = textOf(readField(event.content, m.field));
          if (!re || text === null) return false;
          return regex.test(re, text);
        }
        case 'window':
          return windows.hit(`${cfg.id}|${groupOf(m, event)}`, options.clock.now(), {
            count: m.count,
            within_ms: m.within_ms,
            cooldown_ms: m.cooldown_ms ?? m.within_ms,
          });
        default:
          return false;
      }
    },
    async why(cfg, event) {
      const m = cfg.matcher;
      return m?.kind === 'window' && (await windows.coolingDown(`${cfg.id}|${groupOf(m, event)}`, options.clock.now()))
        ? 'cooldown'
        : 'matcher';
    },
    forget: (configuredId) => windows.forget(`${configuredId}|`),
  };
}
