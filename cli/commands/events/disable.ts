import type { Command } from '../../command-spec.js';
import type { ContextFactory } from '../../command.js';
import { toggleCommand } from './toggle.js';

/** `svc events disable <id>` (the shared run function is in toggle.ts). */
export const disableCommand = (makeCtx: ContextFactory): Command => toggleCommand('disable', makeCtx);
