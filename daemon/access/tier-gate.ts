import type { Tier } from '../../shared/wire.js';
import { ErrorCode } from '../../shared/errors.js';
import { paymentRequired } from '../domain-error.js';

/** Spec §5.4: API keys and MCP belong to the paid Company and Owner tiers. */
const KEY_TIERS: ReadonlySet<Tier> = new Set(['company', 'owner']);

export const tierAllowsKeys = (tier: Tier) => KEY_TIERS.has(tier);

/**
 * The tier gate (spec §7: 402). Callers run it only after authentication succeeded, so an
 * unauthenticated caller learns nothing about an account's tier (SECURITY.md case 17).
 */
export function assertKeyTier(tier: Tier): void {
  if (tierAllowsKeys(tier)) return;
  throw paymentRequired(tierRefusalMessage(tier), ErrorCode.subscriptionRequired, { tier });
}

export const tierRefusalMessage = (tier: Tier) =>
  `MCP access requires a Company subscription: API keys work on the company and owner tiers, and this account is on the ${tier} tier.`;
