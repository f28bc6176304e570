/**
 * The keys whose expiry just passed, found each minute by the audit trail's expiry check
 * (daemon/audit/key-expiry.ts) without reading every key.
 */
export const keyExpirySchema = `
CREATE INDEX svc_secret_keys_expires ON svc_secret_keys ((doc->>'expires_at')) WHERE doc->>'expires_at' IS NOT NULL;
`;
