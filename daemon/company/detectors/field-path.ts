/**
 * Dotted paths into an event's `content` (`text`, `output.message`, `files.0.path`) for predicated
 * matchers. Own properties only, and never `__proto__`/`prototype`/`constructor`: a path is user
 * input and must not reach into the prototype chain.
 */
const SEGMENT = /^[A-Za-z0-9_-]{1,64}$/;
const FORBIDDEN = new Set(['__proto__', 'prototype', 'constructor']);
const MAX_PATH_DEPTH = 10;

export function fieldPathProblem(path: string): string | null {
  const parts = path.split('.');
  if (parts.length > MAX_PATH_DEPTH) return `field path '${path}' is too deep (at most ${MAX_PATH_DEPTH} segments)`;
  for (const p of parts) {
    if (!SEGMENT.test(p)) return `field path '${path}': each dotted segment is 1-64 letters, digits, '_' or '-'`;
    if (FORBIDDEN.has(p)) return `field path '${path}': '${p}' is not allowed`;
  }
  return null;
}

/** The value at `path` in `content`, or undefined when any step is missing. */
export function readField(content: unknown, path: string): unknown {
  let value: unknown = content;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    if (Array.isArray(value)) {
      if (!/^\d+$/.test(key)) return undefined;
      value = value[Number(key)];
    } else {
      if (!Object.hasOwn(value, key)) return undefined;
      value = (value as Record<string, unknown>)[key];
    }
  }
  return value;
}

/** The text a regular expression examines: strings as they are, numbers and booleans spelled out, objects as JSON. */
export function textOf(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  try {
    return JSON.stringify(value) ?? null;
  } catch {
    return null;
  }
}
