import * as z from 'zod';
import { defineTool } from './types.js';

/** Who the key resolves to: answered from the key guard's findings alone, without opening the runtime. */
export const whoamiTool = defineTool({
  name: 'whoami',
  title: 'Who am I',
  description: 'The user and Company this key acts for, and whether the account key was sent too.',
  input: z.strictObject({}),
  annotations: { readOnlyHint: true },
  run: async (_args, { keyAuth }) => ({
    user: { id: keyAuth.user.id, email: keyAuth.user.email, tier: keyAuth.user.tier },
    company: { id: keyAuth.company.id, name: keyAuth.company.name },
    key_id: keyAuth.keyId,
    account_key: keyAuth.accountKey,
  }),
});
