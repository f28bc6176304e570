import { compileLinear, type BoundedRegex, type LinearRegex } from './bounded-regex.js';
import { regexProblem } from './regex-safety.js';

/**
 * The rules behind `guardrail:violation` (over an agent's output) and `graph_guardrail:high_impact`
 * (over a proposed change). Each rule is a vetted regular expression, run on the linear-time engine
 * like predicated matchers. The defaults catch what should never pass unnoticed; a runtime may add its own.
 */
export interface GuardrailRule {
  name: string;
  regex: string;
  flags?: string;
}

export const DEFAULT_OUTPUT_RULES: readonly GuardrailRule[] = [
  { name: 'destructive_shell', regex: '\\brm\\s+-[a-z]*r[a-z]*f[a-z]*\\s+(/|~|\\*)', flags: 'i' },
  { name: 'destructive_sql', regex: '\\b(drop\\s+(table|database|schema)|truncate\\s+table)\\b', flags: 'i' },
  { name: 'api_key_leak', regex: '\\b(ak|sk)_[A-Za-z0-9]{40,}' },
  { name: 'private_key_leak', regex: '-----BEGIN [A-Z ]*PRIVATE KEY-----' },
  { name: 'force_push', regex: '\\bgit\\s+push\\s+(-f|--force)\\b', flags: 'i' },
];

/** Paths whose change is high impact: schema, auth, secrets, CI and deployment. */
export const DEFAULT_HIGH_IMPACT_PATHS: readonly GuardrailRule[] = [
  { name: 'migrations', regex: '(^|/)migrations?/' },
  { name: 'auth', regex: '(^|/)(auth|security)/' },
  { name: 'secrets', regex: '(^|/)\\.env|secrets?\\.' },
  { name: 'ci_deploy', regex: '(^|/)(\\.github/workflows|deploy|infra)/' },
];
export const HIGH_IMPACT_LINES = 500;

export interface CompiledRule {
  name: string;
  re: LinearRegex;
}

/** Compiles rules, refusing any the regex screen rejects (the reason names the rule). */
export function compileRules(rules: readonly GuardrailRule[]): CompiledRule[] {
  return rules.map((r) => {
    const problem = regexProblem(r.regex, r.flags ?? '');
    if (problem) throw new Error(`guardrail rule '${r.name}': ${problem}`);
    return { name: r.name, re: compileLinear(r.regex, r.flags ?? '') };
  });
}

/** The names of the rules `text` breaks (linear-time matching: a rule never runs out of time, so it never fails open). */
export function brokenRules(rules: CompiledRule[], text: string, regex: BoundedRegex): string[] {
  return rules.filter((r) => regex.test(r.re, text)).map((r) => r.name);
}
