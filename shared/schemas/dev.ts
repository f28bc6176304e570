import * as z from 'zod/mini';
import { TIERS } from '../wire.js';

/** The operator routes of a local daemon (`/api/dev/*`, CONTRACT §3). */
const nonEmpty = () => z.string().check(z.trim(), z.minLength(1));
export const devMailQuery = z.object({ to: z.optional(nonEmpty()), since_id: z.optional(nonEmpty()) });
export const devTierBody = z.object({
  email: nonEmpty(),
  tier: z.enum(TIERS, { message: `tier must be one of ${TIERS.join(', ')}` }),
});
