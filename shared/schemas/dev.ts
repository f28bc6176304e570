import * as z from 'zod/mini';
import { TIERS } from '../wire.js';

/** The operator routes of a local daemon (`/api/dev/*`, CONTRACT §3). */
const nonEmpty = () => z.string().check(z.trim(), z.minLength(1));
export const devMailQuery = z.object({ to: z.optional(nonEmpty()), since_id: z.optional(nonEmpty()) });
export const devTierBody = z.object({
  email: nonEmpty(),
  tier: z.enum(TIERS, { message: `tier must be one of ${TIERS.join(', ')}` }),
});

/** `svc dev seed`: a verified user with a password (made, or found by e-mail and left as it is). */
export const devUserBody = z.object({
  email: nonEmpty(),
  password: z.string().check(z.minLength(1)),
  tier: z.optional(z.enum(TIERS, { message: `tier must be one of ${TIERS.join(', ')}` })),
  /** Base32, as authenticator apps show it: the user's TOTP is then enabled with this secret. */
  totp_secret: z.optional(
    z.string().check(z.regex(/^[A-Z2-7]{16,128}=*$/i, 'totp_secret must be a base32 secret of 16 or more characters')),
  ),
});

/** `svc dev clock advance|set`: exactly one of the two. */
export const devClockBody = z.object({
  advance_ms: z.optional(z.int().check(z.minimum(0))),
  set: z.optional(nonEmpty()),
});
