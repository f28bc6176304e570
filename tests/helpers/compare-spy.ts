import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';

/** One call of crypto.timingSafeEqual: copies of both inputs, and what the real function answered. */
export interface CompareCall {
  a: Buffer;
  b: Buffer;
  equal: boolean;
}

type TimingSafeEqual = typeof crypto.timingSafeEqual;
const copy = (v: NodeJS.ArrayBufferView) => Buffer.from(Buffer.from(v.buffer, v.byteOffset, v.byteLength));

/**
 * Records every crypto.timingSafeEqual call made while `run` runs, passing each through to the
 * real function. svc's modules import it by name from node:crypto; syncBuiltinESMExports re-points
 * those named bindings at the spy (and back afterwards), so a compare is seen wherever it is made.
 */
export async function recordTimingSafeEqual<T>(run: () => Promise<T>): Promise<{ result: T; calls: CompareCall[] }> {
  const target = crypto as { timingSafeEqual: TimingSafeEqual };
  const real = target.timingSafeEqual;
  const calls: CompareCall[] = [];
  target.timingSafeEqual = (a, b) => {
    const equal = real(a, b);
    calls.push({ a: copy(a), b: copy(b), equal });
    return equal;
  };
  syncBuiltinESMExports();
  try {
    return { result: await run(), calls };
  } finally {
    target.timingSafeEqual = real;
    syncBuiltinESMExports();
  }
}

/** Whether one recorded call compared `x` with `y` (either order) and answered `equal`. */
export const comparedPair = (calls: CompareCall[], [x, y]: [Buffer, Buffer], equal: boolean) =>
  calls.some((c) => c.equal === equal && ((c.a.equals(x) && c.b.equals(y)) || (c.a.equals(y) && c.b.equals(x))));
