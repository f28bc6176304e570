import * as z from 'zod/mini';
import { boundedString, emailField } from './auth-fields.js';

/** Request bodies of the other sign-in factors: login codes and links, pairing, TOTP, passkeys, wallets. */
export const loginCodeRequestBody = z.object({ email: emailField });
export const loginCodeBody = z.object({ email: emailField, code: boundedString(32) });
export const loginLinkBody = z.object({ token: boundedString(512) });

export const pairingStartBody = z.object({ client: z.optional(boundedString(64)) });
export const pairingPollBody = z.object({ device_code: boundedString(128) });
export const pairingCodeBody = z.object({ user_code: boundedString(32) });

const totpCode = z.string().check(z.trim(), z.minLength(1, 'enter the 6-digit code from your app'), z.maxLength(32));
export const totpLoginBody = z.object({
  partial_token: z.string().check(z.minLength(1), z.maxLength(4096)),
  code: totpCode,
});
export const totpConfirmBody = z.object({ code: totpCode });
export const totpDisableBody = z
  .object({
    code: z.optional(totpCode),
    password: z.optional(z.string().check(z.minLength(1), z.maxLength(1024))),
  })
  .check(
    z.refine((b: { code?: string; password?: string }) => b.code || b.password, {
      message: 'send the current code (or a recovery code) or your password',
    }),
  );

const b64url = () => z.string().check(z.maxLength(16_384), z.regex(/^[A-Za-z0-9_-]*$/, 'must be base64url'));
const credential = z.looseObject({
  id: b64url().check(z.minLength(1)),
  rawId: b64url().check(z.minLength(1)),
  type: z.literal('public-key'),
  clientExtensionResults: z._default(z.looseObject({}), {}),
});
export const passkeyRegisterBeginBody = z.object({ name: z.optional(boundedString(64)) });
export const passkeyRegisterFinishBody = z.object({
  name: z.optional(boundedString(64)),
  response: z.extend(credential, {
    response: z.looseObject({
      clientDataJSON: b64url(),
      attestationObject: b64url(),
      transports: z.optional(z.array(z.string().check(z.maxLength(32))).check(z.maxLength(8))),
    }),
  }),
});
export const passkeyLoginFinishBody = z.object({
  response: z.extend(credential, {
    response: z.looseObject({
      clientDataJSON: b64url(),
      authenticatorData: b64url(),
      signature: b64url(),
      userHandle: z.optional(b64url()),
    }),
  }),
});

/**
 * Sign-In with Ethereum: the signed message. The address of `/nonce` is checked in the route with
 * ethers' `isAddress` (EIP-55 checksums), which shared/ does not load: the CLI and the console import
 * these files, and neither should pull in ethers for a schema.
 */
export const walletSignedBody = z.object({
  message: z.string().check(z.minLength(1), z.maxLength(4096)),
  signature: z.string().check(z.trim(), z.regex(/^0x[0-9a-fA-F]{130}$/, 'must be a 65-byte hex signature (0x…)')),
});
export const walletSignupBody = z.extend(walletSignedBody, { invite_code: boundedString(64) });
