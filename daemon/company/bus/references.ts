import type { EventRow } from '../company-services.js';

/**
 * `{{event.<field>}}` in a tool call's args (CONTRACT §8): the field is `id`, `type`, `agent_id`,
 * `session_id`, `quest_id`, `content` or a path under it (`content.reason`, `content.items.0`).
 * Substitution only — a lookup of a named field, never an expression — so no code a rule's author
 * writes ever runs in the daemon. Checked when the configured event is saved; resolved at dispatch.
 */
const REFERENCE = /\{\{\s*([^{}]*?)\s*\}\}/g;
const EXACT = /^\{\{\s*([^{}]*?)\s*\}\}$/;
const TOP_FIELDS = ['id', 'type', 'agent_id', 'session_id', 'quest_id'] as const;
const SEGMENT = /^[A-Za-z0-9_-]{1,100}$/;
const MAX_SEGMENTS = 16;

export interface ReferenceProblem {
  /** Where in the args: `title`, `append.text`. */
  path: string;
  message: string;
}

/** The path a reference reads, or a sentence saying why it is not one. */
function parseReference(inner: string): { ok: true; path: string[] } | { ok: false; message: string } {
  if (!inner.startsWith('event.'))
    return { ok: false, message: `'{{${inner}}}' is not a reference: only {{event.<field>}} exists` };
  const path = inner.slice('event.'.length).split('.');
  const [head, ...rest] = path;
  if (head === 'content') {
    if (rest.length > MAX_SEGMENTS || !rest.every((s) => SEGMENT.test(s))) {
      return {
        ok: false,
        message: `'{{${inner}}}': a content path is up to ${MAX_SEGMENTS} names of letters, digits, _ or - joined by dots`,
      };
    }
    return { ok: true, path };
  }
  if ((TOP_FIELDS as readonly string[]).includes(head!) && rest.length === 0) return { ok: true, path };
  return {
    ok: false,
    message: `'{{${inner}}}': unknown field '${path.join('.')}'; use ${TOP_FIELDS.join(', ')}, content or content.<path>`,
  };
}

/** Every string of a JSON value with where it sits (object keys are not templates). */
function* stringsOf(value: unknown, at: string[]): Generator<[string, string[]]> {
  if (typeof value === 'string') yield [value, at];
  else if (Array.isArray(value)) for (let i = 0; i < value.length; i++) yield* stringsOf(value[i], [...at, String(i)]);
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) yield* stringsOf(v, [...at, k]);
}

/** The first bad reference in `args`, or null; also the paths of strings that are exactly one reference. */
export function checkReferences(args: unknown): { problem: ReferenceProblem | null; exact: string[][] } {
  const exact: string[][] = [];
  for (const [text, at] of stringsOf(args, [])) {
    if (!text.includes('{{')) continue;
    for (const m of text.matchAll(REFERENCE)) {
      const parsed = parseReference(m[1]!);
      if (!parsed.ok) return { problem: { path: at.join('.'), message: parsed.message }, exact };
    }
    if (EXACT.test(text)) exact.push(at);
  }
  return { problem: null, exact };
}

/** Whether `args` holds any reference at all: most rules have none, and pay nothing at dispatch. */
export const hasReferences = (args: unknown): boolean => JSON.stringify(args ?? null).includes('{{');

function lookup(event: EventRow, path: string[]): unknown {
  let value: unknown = event;
  for (const name of path) {
    if (value === null || typeof value !== 'object') return null;
    // Own properties only: a path can never reach a prototype (`constructor`, `__proto__`).
    if (!Object.hasOwn(value, name)) return null;
    value = (value as Record<string, unknown>)[name];
  }
  return value === undefined ? null : value;
}

/** A whole-template reference's value as a key: a scalar as String() gives it, an object or list as JSON. */
const wholeText = (v: unknown): string => (v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v));
const asText = (v: unknown): string => (v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));

/**
 * The args with every reference replaced from `event`: a string that is exactly one reference
 * takes the value with its JSON type (a missing field is null); inside longer text it is inserted
 * as text (objects as JSON, null as nothing). References were checked when the rule was saved;
 * one that still does not parse is left as written.
 */
export function resolveReferences<T>(args: T, event: EventRow): T {
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') {
      if (!value.includes('{{')) return value;
      const whole = EXACT.exec(value);
      if (whole) {
        const parsed = parseReference(whole[1]!);
        return parsed.ok ? structuredClone(lookup(event, parsed.path)) : value;
      }
      return value.replace(REFERENCE, (all, inner: string) => {
        const parsed = parseReference(inner);
        return parsed.ok ? asText(lookup(event, parsed.path)) : all;
      });
    }
    if (Array.isArray(value)) return value.map(walk);
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]));
    return value;
  };
  return walk(args) as T;
}

type TextTemplate = (event: EventRow) => string;
const textTemplates = new Map<string, TextTemplate>();
/** Rules are few, but their templates are the map's keys: past this many it starts again. */
const MAX_TEXT_TEMPLATES = 1000;

/**
 * The text of one template resolved on every firing (a flow-control key): what
 * `resolveReferences` gives, as text, with an object or a list as its JSON (so two different
 * values are two keys, not both "[object Object]"). Parsed once and kept, and the value it reads is
 * not copied, as it only becomes text.
 */
export function resolveText(template: string, event: EventRow): string {
  let resolve = textTemplates.get(template);
  if (!resolve) {
    if (textTemplates.size >= MAX_TEXT_TEMPLATES) textTemplates.clear();
    textTemplates.set(template, (resolve = compileText(template)));
  }
  return resolve(event);
}

function compileText(template: string): TextTemplate {
  if (!template.includes('{{')) return () => template;
  const whole = EXACT.exec(template);
  if (whole) {
    const parsed = parseReference(whole[1]!);
    if (!parsed.ok) return () => template;
    return (event) => wholeText(lookup(event, parsed.path));
  }
  // Literal text and references in turn; a reference that does not parse stays as written.
  const parts: (string | string[])[] = [];
  let last = 0;
  for (const m of template.matchAll(REFERENCE)) {
    const parsed = parseReference(m[1]!);
    parts.push(template.slice(last, m.index), parsed.ok ? parsed.path : m[0]);
    last = m.index + m[0].length;
  }
  parts.push(template.slice(last));
  return (event) => {
    let text = '';
    for (const part of parts) text += typeof part === 'string' ? part : asText(lookup(event, part));
    return text;
  };
}
