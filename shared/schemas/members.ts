import * as z from 'zod/mini';
import { ASSIGNABLE_ROLES, ROLES } from '../roles.js';
import { emailField } from './auth-fields.js';

/**
 * The wire contract of a Company's people (docs/companies.md): members, roles, invitations,
 * leaving and transferring ownership. Validated by the daemon, read back by the CLI.
 */
const assignableRole = z.enum(ASSIGNABLE_ROLES, {
  message: `role is one of ${ASSIGNABLE_ROLES.join(', ')} (ownership moves with POST /api/companies/{id}/transfer)`,
});
const userId = z
  .string({ message: 'user_id is required' })
  .check(z.trim(), z.minLength(1, 'user_id is required'), z.maxLength(100, 'is too long'));

export const invitationBody = z.object({ email: emailField, role: assignableRole });
export const roleBody = z.object({ role: assignableRole });
export const transferBody = z.object({ user_id: userId });
export const acceptBody = z.object({
  code: z
    .string({ message: 'code is required (from the invitation e-mail)' })
    .check(z.trim(), z.minLength(1, 'code is required (from the invitation e-mail)'), z.maxLength(64, 'is too long')),
});

const role = z.enum(ROLES);
export const memberRow = z.object({
  user_id: z.string(),
  email: z.nullable(z.string()),
  role,
  joined_at: z.nullable(z.string()),
});
export type MemberRow = z.infer<typeof memberRow>;
export const memberListResponse = z.object({ members: z.array(memberRow) });

export const invitationRow = z.object({
  id: z.string(),
  email: z.string(),
  role,
  status: z.enum(['pending', 'expired']),
  invited_by: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
});
export type InvitationRow = z.infer<typeof invitationRow>;
export const invitationListResponse = z.object({ invitations: z.array(invitationRow) });
