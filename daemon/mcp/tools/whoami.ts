import * as z from 'zod';
import { defineTool, READ_ONLY } from './types.js';
import { grantedScopes } from '../../access/permission.js';

const output = z
  .object({
    user: z
      .object({
        id: z.string(),
        email: z.string().nullable().describe('null for a wallet-only account.'),
        tier: z.string(),
      })
      .loose(),
    company: z.object({ id: z.string(), name: z.string() }).loose(),
    key_id: z.string().nullable().describe('The secret key this call was made with; null for an OAuth access token.'),
    client_id: z.string().optional().describe('For an OAuth access token: the client it was issued to.'),
    role: z
      .string()
      .nullable()
      .describe(
        'The role in this Company of the person who made the key, or whose access token this is (owner, admin, member, viewer); null once they left. The call acts with the scopes of the key or token, never beyond that role for a token.',
      ),
    scopes: z.array(z.string()).nullable().describe('The scopes of this key or token; null: every scope.'),
    account_key: z.boolean().describe('Whether the account key (X-Api-Key) was sent too.'),
  })
  .loose();

/** Who the key resolves to: answered from the key guard's findings alone, without opening the runtime. */
export const whoamiTool = defineTool({
  name: 'whoami',
  title: 'Who am I',
  description:
    "The user and Company this key (or access token) acts for, the maker's role there, the scopes, and whether the account key was sent too.",
  input: z.strictObject({}),
  output,
  annotations: READ_ONLY,
  run: async (_args, { keyAuth }) => ({
    user: { id: keyAuth.user.id, email: keyAuth.user.email, tier: keyAuth.user.tier },
    company: { id: keyAuth.company.id, name: keyAuth.company.name },
    key_id: keyAuth.keyId,
    ...(keyAuth.oauth ? { client_id: keyAuth.oauth.clientId } : {}),
    role: keyAuth.makerRole,
    scopes: grantedScopes(keyAuth.principal),
    account_key: keyAuth.accountKey,
  }),
});
