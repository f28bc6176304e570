import type { Command } from '../../command-spec.js';
import type { ContextFactory } from '../../command.js';
import { toggleCommand } from './toggle.js';

/** `svc events delete <id>` (the shared run function is in toggle.ts). */
export const deleteCommand = (makeCtx: ContextFactory): Command => toggleCommand('delete', makeCtx);
