import { createHash } from 'node:crypto';
import type { Clock } from '../../clock.js';
import type { Emitted, EventsService } from '../company-services.js';
import { createBoundedRegex, type BoundedRegex } from './bounded-regex.js';
import {
  brokenRules,
  compileRules,
  DEFAULT_HIGH_IMPACT_PATHS,
  DEFAULT_OUTPUT_RULES,
  HIGH_IMPACT_LINES,
  type GuardrailRule,
} from './guardrail-rules.js';
import { memoryWindows, type WindowRule, type WindowStore } from './window-counter.js';

/**
 * The runtime API that turns real causes into detector events (spec §6.3), emitted where the cause
 * happens (§6.5 rule 3). The runtime (and its REST route, see docs/emitters.md) calls one method per
 * cause; each returns what the emit fired, or null when the cause is not a detection.
 */
export interface Scope {
  agent_id?: string | null;
  session_id?: string | null;
  quest_id?: string | null;
  caused_by?: string | null;
}

export interface CauseReporterOptions {
  clock: Clock;
  events: Pick<EventsService, 'emit'>;
  regex?: BoundedRegex;
  /** Same message or tool call this many times within the window → `loop:detected`. */
  loop?: WindowRule;
  /** This many ideas within the window → `ideas:threshold_reached`. */
  ideas?: WindowRule;
  outputRules?: readonly GuardrailRule[];
  highImpactPaths?: readonly GuardrailRule[];
  /** Where loops and ideas are counted (default this daemon's memory; team mode: the database). */
  windows?: WindowStore;
}

const EXCERPT = 500;
const clip = (s: string) => (s.length > EXCERPT ? `${s.slice(0, EXCERPT)}…` : s);
const scopeOf = (s: Scope) => ({
  agent_id: s.agent_id ?? null,
  session_id: s.session_id ?? null,
  quest_id: s.quest_id ?? null,
  caused_by: s.caused_by ?? null,
});

export function createCauseReporter(options: CauseReporterOptions) {
  const { clock, events } = options;
  const regex = options.regex ?? createBoundedRegex();
  const windows = options.windows ?? memoryWindows();
  const loopRule = options.loop ?? { count: 3, within_ms: 10 * 60_000, cooldown_ms: 10 * 60_000 };
  const ideasRule = options.ideas ?? { count: 5, within_ms: 24 * 3600_000, cooldown_ms: 24 * 3600_000 };
  const outputRules = compileRules(options.outputRules ?? DEFAULT_OUTPUT_RULES);
  const pathRules = compileRules(options.highImpactPaths ?? DEFAULT_HIGH_IMPACT_PATHS);

  /** Loops are counted per session (else per agent) and per exact repeated thing. */
  const repeated = async (
    scope: Scope,
    kind: 'message' | 'tool_call',
    fingerprint: string,
    sample: string,
  ): Promise<Emitted | null> => {
    const digest = createHash('sha256').update(`${kind}\u0000${fingerprint}`).digest('hex').slice(0, 32);
    const key = `loop|${scope.session_id ?? `agent:${scope.agent_id ?? '-'}`}|${digest}`;
    if (!(await windows.hit(key, clock.now(), loopRule))) return null;
    return events.emit({
      type: 'loop:detected',
      ...scopeOf(scope),
      content: { kind, repeated: loopRule.count, within_ms: loopRule.within_ms, sample: clip(sample) },
    });
  };

  return {
    /** An agent's message: guardrail rules over its text, and loop detection. */
    async reportOutput(scope: Scope, text: string): Promise<Emitted[]> {
      const out: Emitted[] = [];
      const broken = brokenRules(outputRules, text, regex);
      if (broken.length > 0)
        out.push(
          await events.emit({
            type: 'guardrail:violation',
            ...scopeOf(scope),
            content: { rules: broken, excerpt: clip(text) },
          }),
        );
      const loop = await repeated(scope, 'message', text.trim().replace(/\s+/g, ' '), text);
      if (loop) out.push(loop);
      return out;
    },
    /** A tool call an agent makes: the same tool with the same arguments, again and again, is a loop. */
    reportToolCall(scope: Scope, call: { tool: string; args?: unknown }): Promise<Emitted | null> {
      const fingerprint = `${call.tool} ${stableJson(call.args ?? {})}`;
      return repeated(scope, 'tool_call', fingerprint, fingerprint);
    },
    /** A command an agent ran: a non-zero exit is `shell:command_failed`. */
    async reportCommand(
      scope: Scope,
      run: { command: string; exit_code: number; stderr?: string },
    ): Promise<Emitted | null> {
      if (run.exit_code === 0) return null;
      return events.emit({
        type: 'shell:command_failed',
        ...scopeOf(scope),
        content: { command: clip(run.command), exit_code: run.exit_code, stderr: clip(run.stderr ?? '') },
      });
    },
    /** A change an agent proposes: touching a high-impact path or too many lines is `graph_guardrail:high_impact`. */
    async reportProposedChange(
      scope: Scope,
      change: { files: string[]; lines_changed?: number; summary?: string },
    ): Promise<Emitted | null> {
      const reasons = new Set<string>();
      for (const file of change.files.slice(0, 1_000))
        for (const name of brokenRules(pathRules, file, regex)) reasons.add(name);
      if ((change.lines_changed ?? 0) > HIGH_IMPACT_LINES) reasons.add('large_change');
      if (reasons.size === 0) return null;
      return events.emit({
        type: 'graph_guardrail:high_impact',
        ...scopeOf(scope),
        content: {
          reasons: [...reasons],
          files: change.files.slice(0, 50),
          lines_changed: change.lines_changed ?? null,
          summary: clip(change.summary ?? ''),
        },
      });
    },
    /** A quest moved to `done`: without a result that is `agent:premature_completion`. */
    async reportQuestDone(
      scope: Scope,
      quest: { id: string; title: string; status: string; result: unknown },
    ): Promise<Emitted | null> {
      const empty =
        quest.result === null ||
        quest.result === undefined ||
        (typeof quest.result === 'string' && quest.result.trim() === '');
      if (quest.status !== 'done' || !empty) return null;
      return events.emit({
        type: 'agent:premature_completion',
        ...scopeOf({ ...scope, quest_id: quest.id }),
        content: { quest_id: quest.id, title: quest.title },
      });
    },
    /** An idea recorded: enough of them within the window is `ideas:threshold_reached` (per agent). */
    async reportIdea(scope: Scope, idea: { text: string }): Promise<Emitted | null> {
      if (!(await windows.hit(`ideas|${scope.agent_id ?? '-'}`, clock.now(), ideasRule))) return null;
      return events.emit({
        type: 'ideas:threshold_reached',
        ...scopeOf(scope),
        content: { count: ideasRule.count, within_ms: ideasRule.within_ms, latest: clip(idea.text) },
      });
    },
  };
}

export type CauseReporter = ReturnType<typeof createCauseReporter>;

/** JSON with sorted keys, so `{a,b}` and `{b,a}` are the same call. */
function stableJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  const obj = value as Record<string, unknown>;
  return `{${Object.keys(obj)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${stableJson(obj[k])}`)
    .join(',')}}`;
}
