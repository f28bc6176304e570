import type { Command } from '../../command-spec.js';
import type { ContextFactory } from '../../command.js';
import { toggleCommand } from './toggle.js';

/** `svc events enable <id>` (the shared run function is in toggle.ts). */
export const enableCommand = (makeCtx: ContextFactory): Command => toggleCommand('enable', makeCtx);
