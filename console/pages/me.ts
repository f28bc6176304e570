/** GET /api/me, as the console uses it (docs/accounts.md). */
export interface Me {
  id: string;
  email: string | null;
  email_verified: boolean;
  pending_verification: boolean;
  tier: string;
  display_name: string | null;
  timezone: string | null;
  locale: string | null;
  avatar_url: string | null;
  has_password: boolean;
  wallet_address: string | null;
  session: { id: string; method: string[]; verified: boolean; created_at: string; expires_at: string };
}
