import { randomBytes, randomInt } from 'node:crypto';

/** The daemon's source of randomness; always a CSPRNG outside tests. */
export interface Random {
  bytes(n: number): Buffer;
  /** A uniform integer in [min, max). */
  int(min: number, max: number): number;
}

export const cryptoRandom: Random = {
  bytes: (n) => randomBytes(n),
  int: (min, max) => randomInt(min, max),
};
