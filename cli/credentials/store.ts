/** Where the CLI keeps secrets (JWT, ak_/sk_ keys), by account name. */
export interface CredentialStore {
  /** `keychain` or `file`; tells the user where a secret went. */
  readonly kind: () => 'keychain' | 'file';
  get(account: string): Promise<string | null>;
  set(account: string, secret: string): Promise<void>;
  delete(account: string): Promise<boolean>;
}

/** Account names: one per daemon URL, so a local and a remote login do not overwrite each other. */
export const accounts = {
  token: (url: string) => `token:${url}`,
  accountKey: (url: string) => `account-key:${url}`,
  secretKey: (url: string, companyId: string) => `secret-key:${url}:${companyId}`,
};
