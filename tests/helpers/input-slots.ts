import type { Context, Middleware } from 'koa';
import { inject } from 'light-my-request';
import type { TestApp } from './test-app.js';
import type { RouteRef } from './bad-inputs.js';

/**
 * Every place a route takes input from, found by running it: the query parameters it reads and
 * the body fields it reads (paths like `tool_calls.0.args.title`), besides its `:params`. A
 * request is sent once per route (with its valid template bodies) through an app whose query and
 * body are recording proxies, so a filter or field added to a route tomorrow is listed without
 * anyone updating a table. The fuzz and the stored-text tests put hostile values in each slot.
 */
export interface RouteSlots {
  route: RouteRef;
  /** Each query parameter read, with the probe that read it first (its headers reach that code). */
  query: { key: string; probe: string }[];
  params: string[];
  body: string[][];
}

export interface SlotProbe {
  /** Names the probe, for `RouteSlots.query`. */
  label: string;
  /** The path with its `:params` filled so the request reaches the handler. */
  url: string;
  headers: Record<string, string>;
  /** Valid bodies for the route (its templates), or none. */
  bodies: Record<string, unknown>[];
}

/** Body fields deeper than this are left out (a tool call's args are deep enough). */
const MAX_DEPTH = 4;
/** Keys read to handle a value, not fields of it: JSON.stringify's toJSON, await's then, the prototype's members. */
const NOT_FIELDS = new Set(['toJSON', 'then', ...Object.getOwnPropertyNames(Object.prototype)]);

export async function discoverSlots(
  t: TestApp,
  routes: RouteRef[],
  probeFor: (route: RouteRef) => Promise<SlotProbe[]>,
): Promise<RouteSlots[]> {
  let query = new Map<string, string>();
  let body = new Map<string, string[]>();
  let label = '';
  const recorder: Middleware = async (ctx, next) => {
    // Only this request's reads count: a memory store keeps the proxied value it was given, and a
    // later request reading that record is not reading its own input.
    const [keys, fields, probe] = [query, body, label];
    let live = true;
    recordQuery(ctx, (key) => live && (keys.has(key) || keys.set(key, probe)));
    recordBody(ctx, (path) => live && fields.set(path.join('.'), path));
    try {
      await next();
    } finally {
      live = false;
    }
  };
  t.app.middleware.unshift(recorder);
  const handler = t.app.callback();
  t.app.middleware.shift();
  const out: RouteSlots[] = [];
  for (const route of routes) {
    query = new Map();
    body = new Map();
    for (const probe of await probeFor(route)) {
      label = probe.label;
      for (const payload of probe.bodies.length ? probe.bodies : [undefined]) {
        await inject(handler, {
          method: route.method as 'GET',
          url: probe.url,
          headers: { ...probe.headers, ...(payload ? { 'content-type': 'application/json' } : {}) },
          ...(payload ? { payload: JSON.stringify(payload) } : {}),
        });
      }
    }
    const params = [...route.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!);
    const read = [...query].map(([key, probe]) => ({ key, probe })).sort((a, b) => a.key.localeCompare(b.key));
    out.push({ route, query: read, params, body: [...body.values()] });
  }
  return out;
}

/** ctx.query (Koa parses it once per request) replaced by a proxy that reports every key read. */
function recordQuery(ctx: Context, read: (key: string) => void): void {
  const parsed = ctx.query;
  const proxy = new Proxy(parsed, {
    get(target, key, receiver) {
      if (typeof key === 'string' && !NOT_FIELDS.has(key)) read(key);
      return Reflect.get(target, key, receiver);
    },
  });
  Object.defineProperty(ctx.request, 'query', { get: () => proxy, set: () => undefined, configurable: true });
}

/** ctx.request.body, once the body parser set it, replaced by a deep proxy that reports every field path read. */
function recordBody(ctx: Context, read: (path: string[]) => void): void {
  let value: unknown;
  Object.defineProperty(ctx.request, 'body', {
    get: () => value,
    set: (v: unknown) => void (value = deepRecorder(v, [], read)),
    configurable: true,
  });
}

function deepRecorder(value: unknown, path: string[], read: (path: string[]) => void): unknown {
  if (value === null || typeof value !== 'object' || path.length >= MAX_DEPTH) return value;
  const children = new Map<string, unknown>();
  return new Proxy(value as object, {
    get(target, key, receiver) {
      const child = Reflect.get(target, key, receiver);
      // Array methods and symbols are how the value is walked, not fields of it.
      if (typeof key !== 'string' || NOT_FIELDS.has(key) || (Array.isArray(target) && !/^\d+$/.test(key))) return child;
      read([...path, key]);
      if (!children.has(key)) children.set(key, deepRecorder(child, [...path, key], read));
      return children.get(key);
    },
  });
}
