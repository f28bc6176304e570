/**
 * W3C Trace Context `traceparent` (https://www.w3.org/TR/trace-context/#traceparent-header), as an
 * MCP client sends it in a request's `params._meta` (SEP-414). A value that is not one is ignored,
 * never a refusal: tracing is the caller's aid, and a broken tracer must not break the call. The
 * audit entry then says a traceparent was sent and not kept.
 */
const VERSION_00 = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
// A later version may append fields after the flags (the spec's forward-compatibility rule).
const LATER = /^([0-9a-e][0-9a-f]|f[0-9a-e])-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_PARENT = '0'.repeat(16);

export type TraceparentReading = { kind: 'none' } | { kind: 'valid'; traceparent: string } | { kind: 'invalid' };

/** The traceparent of a JSON-RPC request's `params._meta`, checked. */
export function readTraceparent(message: unknown): TraceparentReading {
  const meta = (message as { params?: { _meta?: unknown } } | null)?.params?._meta;
  if (typeof meta !== 'object' || meta === null) return { kind: 'none' };
  return checkTraceparent((meta as { traceparent?: unknown }).traceparent);
}

/** A traceparent value (from `_meta`, or a REST call's `traceparent` header), checked. */
export function checkTraceparent(value: unknown): TraceparentReading {
  if (value === undefined || value === '') return { kind: 'none' };
  if (typeof value !== 'string' || value.length > 512) return { kind: 'invalid' };
  const v00 = VERSION_00.exec(value);
  const later = v00 ? null : LATER.exec(value);
  const trace = v00?.[1] ?? later?.[2];
  const parent = v00?.[2] ?? later?.[3];
  if (!trace || !parent || trace === ZERO_TRACE || parent === ZERO_PARENT) return { kind: 'invalid' };
  // Kept as sent for version 00; a later version's own fields are not ours to keep.
  return { kind: 'valid', traceparent: v00 ? value : value.slice(0, 55) };
}
