import { Command } from 'commander';
import type { ContextFactory } from '../command.js';
import { inviteCommand } from './admin/invite.js';
import { tierCommand } from './admin/tier.js';
import { startCommand } from './daemon/start.js';
import { statusCommand } from './daemon/status.js';
import { stopCommand } from './daemon/stop.js';
import { mailCommand } from './mail/list.js';
import { loginCommand } from './auth/login.js';
import { logoutCommand } from './auth/logout.js';
import { signupCommand } from './auth/signup.js';
import { verifyCommand } from './auth/verify.js';
import { whoamiCommand } from './auth/whoami.js';
import { passwordChangeCommand } from './password/change.js';
import { passwordForgotCommand } from './password/forgot.js';
import { passwordResetCommand } from './password/reset.js';
import { sessionsListCommand } from './sessions/list.js';
import { sessionsRevokeCommand } from './sessions/revoke.js';
import { sessionsRevokeOthersCommand } from './sessions/revoke-others.js';

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
  // accounts (issue 3)
  program.addCommand(signupCommand(makeCtx));
  program.addCommand(verifyCommand(makeCtx));
  program.addCommand(loginCommand(makeCtx));
  program.addCommand(logoutCommand(makeCtx));
  program.addCommand(whoamiCommand(makeCtx));
  program.addCommand(
    new Command('sessions')
      .description('list and end your login sessions')
      .addCommand(sessionsListCommand(makeCtx))
      .addCommand(sessionsRevokeCommand(makeCtx))
      .addCommand(sessionsRevokeOthersCommand(makeCtx)),
  );
  program.addCommand(
    new Command('password')
      .description('change, forget or reset your password')
      .addCommand(passwordChangeCommand(makeCtx))
      .addCommand(passwordForgotCommand(makeCtx))
      .addCommand(passwordResetCommand(makeCtx)),
  );
}
