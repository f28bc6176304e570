import type { Middleware } from 'koa';
import { ErrorCode } from '../../shared/errors.js';
import { isoAt } from '../clock.js';
import type { Deps } from '../deps.js';
import { invalid } from '../domain-error.js';
import { userOf } from './user-guard.js';
import { validate } from '../http/validate.js';
import type { UserRecord } from '../store/types.js';
import { presentUser } from './me-view.js';
import { avatarBody } from '../../shared/schemas/auth.js';

/**
 * Avatars arrive as a data URL (`data:image/png;base64,...`). 40 KiB decoded at most: base64 grows
 * it by 4/3 to about 54 KiB of JSON, under the 64 KiB body limit of the auth routes.
 */
export const AVATAR_MAX_BYTES = 40 * 1024;

/** The first bytes each accepted type must start with: the declared type alone proves nothing. */
const SIGNATURES: Record<string, (b: Buffer) => boolean> = {
  'image/png': (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/gif': (b) => ['GIF87a', 'GIF89a'].includes(b.subarray(0, 6).toString('latin1')),
  'image/webp': (b) =>
    b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
};

export type AvatarParse = { ok: true; type: string; bytes: Buffer } | { ok: false; code: string; message: string };

/** Reads and checks a data URL; a refusal is a value with the reason. */
export function parseAvatarDataUrl(value: string): AvatarParse {
  const match = /^data:(image\/[a-z0-9.+-]+);base64,([A-Za-z0-9+/]*={0,2})$/i.exec(value.trim());
  if (!match)
    return {
      ok: false,
      code: ErrorCode.avatarInvalid,
      message: 'avatar must be a data URL: data:image/<png|jpeg|webp|gif>;base64,<data>.',
    };
  const type = match[1]!.toLowerCase();
  const check = SIGNATURES[type];
  if (!check)
    return {
      ok: false,
      code: ErrorCode.avatarInvalid,
      message: `avatar type ${type} is not accepted: use PNG, JPEG, WebP or GIF.`,
    };
  if (match[2]!.length % 4 !== 0)
    return { ok: false, code: ErrorCode.avatarInvalid, message: 'avatar data is not valid base64.' };
  const bytes = Buffer.from(match[2]!, 'base64');
  if (bytes.length === 0) return { ok: false, code: ErrorCode.avatarInvalid, message: 'avatar image is empty.' };
  if (bytes.length > AVATAR_MAX_BYTES) {
    return {
      ok: false,
      code: ErrorCode.avatarTooLarge,
      message: `avatar is ${bytes.length} bytes; the limit is ${AVATAR_MAX_BYTES} bytes (40 KiB).`,
    };
  }
  if (!check(bytes))
    return {
      ok: false,
      code: ErrorCode.avatarInvalid,
      message: `avatar data is not a ${type} image (its first bytes do not match).`,
    };
  return { ok: true, type, bytes };
}

/** POST /api/auth/update-avatar {avatar: "data:image/...;base64,..." | null} → { ok, user }. null removes it. */
export function updateAvatar(deps: Deps): Middleware {
  return async (ctx) => {
    const { user } = userOf(ctx);
    const input = validate(avatarBody, ctx.request.body);
    let avatar: UserRecord['avatar'] = null;
    if (input.avatar !== null) {
      const parsed = parseAvatarDataUrl(input.avatar);
      if (!parsed.ok) throw invalid(parsed.message, parsed.code);
      avatar = { type: parsed.type, data_base64: parsed.bytes.toString('base64'), updated_at: isoAt(deps.clock.now()) };
    }
    const updated = await deps.stores.users.update(user.id, (u) => {
      u.avatar = avatar;
    });
    ctx.body = { ok: true, user: presentUser(updated!) };
  };
}
