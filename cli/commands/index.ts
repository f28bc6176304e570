import { Command } from 'commander';
import type { ContextFactory } from '../command.js';
import { inviteCommand } from './admin/invite.js';
import { tierCommand } from './admin/tier.js';
import { startCommand } from './daemon/start.js';
import { statusCommand } from './daemon/status.js';
import { stopCommand } from './daemon/stop.js';
import { mailCommand } from './mail/list.js';
import { listCommand as eventsListCommand } from './events/list.js';
import { tailCommand as eventsTailCommand } from './events/tail.js';
import { createCommand as eventsCreateCommand } from './events/create.js';
import { enableCommand as eventsEnableCommand } from './events/enable.js';
import { disableCommand as eventsDisableCommand } from './events/disable.js';
import { deleteCommand as eventsDeleteCommand } from './events/delete.js';
import { triggerCommand as eventsTriggerCommand } from './events/trigger.js';
import { traceCommand as eventsTraceCommand } from './events/trace.js';

/** Every command, grouped by noun. A command's file is cli/commands/<noun>/<verb>.ts. */
export function registerCommands(program: Command, makeCtx: ContextFactory): void {
  program.addCommand(
    new Command('daemon')
      .description('run the local svc daemon')
      .addCommand(startCommand(makeCtx))
      .addCommand(stopCommand(makeCtx))
      .addCommand(statusCommand(makeCtx)),
  );
  program.addCommand(mailCommand(makeCtx));
  program.addCommand(
    new Command('admin')
      .description('operator commands for a local daemon (invites, tiers)')
      .addCommand(inviteCommand(makeCtx))
      .addCommand(tierCommand(makeCtx)),
  );
  program.addCommand(
    new Command('events')
      .description("a Company's events: list, follow, configure, trigger and trace")
      .addCommand(eventsListCommand(makeCtx))
      .addCommand(eventsTailCommand(makeCtx))
      .addCommand(eventsCreateCommand(makeCtx))
      .addCommand(eventsEnableCommand(makeCtx))
      .addCommand(eventsDisableCommand(makeCtx))
      .addCommand(eventsDeleteCommand(makeCtx))
      .addCommand(eventsTriggerCommand(makeCtx))
      .addCommand(eventsTraceCommand(makeCtx)),
  );
}
