/** Where the CLI keeps secrets (JWT, ak_/sk_ keys), by account name. */
export interface CredentialStore {
  /** `keychain` or `file`; tells the user where a secret went. */
  readonly kind: () => 'keychain' | 'file';
  get(account: string): Promise<string | null>;
  set(account: string, secret: string): Promise<void>;
  delete(account: string): Promise<boolean>;
  /** Where a secret is kept (`svc auth status`), or null when it is not; the stores that know say. */
  where?(account: string): Promise<'keychain' | 'file' | null>;
}

/**
 * Account names, one set per scope: `profile:<name>` (see cli/profiles.ts). Before profiles the
 * scope was the daemon URL; cli/credentials/profile-scope.ts moves such names to the profile.
 */
export const accounts = {
  token: (scope: string) => `token:${scope}`,
  accountKey: (scope: string) => `account-key:${scope}`,
  secretKey: (scope: string, companyId: string) => `secret-key:${scope}:${companyId}`,
  /** Every secret key the profile keeps for the Company, the current one included (a JSON list). */
  secretKeys: (scope: string, companyId: string) => `secret-keys:${scope}:${companyId}`,
};
