import { Command } from 'commander';
import type { ContextFactory } from '../command.js';
import { inviteCommand } from './admin/invite.js';
import { tierCommand } from './admin/tier.js';
import { startCommand } from './daemon/start.js';
import { statusCommand } from './daemon/status.js';
import { stopCommand } from './daemon/stop.js';
import { mailCommand } from './mail/list.js';
import { webhookCommand } from './webhook/send.js';

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
  program.addCommand(webhookCommand(makeCtx));
}
