import type { Clock } from './clock.js';
import type { Random } from './random.js';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * Ids that sort in creation order as plain strings: `<prefix>_<time><counter><random>`.
 * The time is base36 milliseconds (9 characters, good to the year 5188), the counter keeps ids made
 * in the same millisecond (or after the clock stepped back) strictly increasing within one process.
 */
export type IdGenerator = (prefix: string) => string;

export function createIdGenerator(clock: Clock, random: Random): IdGenerator {
  let lastTime = 0;
  let counter = 0;
  return (prefix) => {
    const now = clock.now();
    if (now > lastTime) {
      lastTime = now;
      counter = 0;
    } else {
      counter++;
    }
    const time = lastTime.toString(36).padStart(9, '0');
    const seq = counter.toString(36).padStart(4, '0');
    let tail = '';
    for (const b of random.bytes(6)) tail += ALPHABET[b % 36];
    return `${prefix}_${time}${seq}${tail}`;
  };
}
