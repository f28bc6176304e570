import * as z from 'zod';
import { defineTool, READ_ONLY } from './types.js';

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
    key_id: z.string().describe('The secret key this call was made with.'),
    role: z
      .string()
      .nullable()
      .describe(
        'The role in this Company of the person who made the key (owner, admin, member, viewer); null once they left. The key acts with its own scopes.',
      ),
    scopes: z.array(z.string()).nullable().describe('The scopes of this key; null: every scope.'),
    account_key: z.boolean().describe('Whether the account key (X-Api-Key) was sent too.'),
  })
  .loose();

/** Who the key resolves to: answered from the key guard's findings alone, without opening the runtime. */
export const whoamiTool = defineTool({
  name: 'whoami',
  title: 'Who am I',
  description:
    "The user and Company this key acts for, the maker's role there, the key's scopes, and whether the account key was sent too.",
  input: z.strictObject({}),
  output,
  annotations: READ_ONLY,
  run: async (_args, { keyAuth }) => ({
    user: { id: keyAuth.user.id, email: keyAuth.user.email, tier: keyAuth.user.tier },
    company: { id: keyAuth.company.id, name: keyAuth.company.name },
    key_id: keyAuth.keyId,
    role: keyAuth.makerRole,
    scopes: keyAuth.key.scopes ?? null,
    account_key: keyAuth.accountKey,
  }),
});
