import { Command } from 'commander';
import type { ContextFactory } from '../command.js';
import { inviteCommand } from './admin/invite.js';
import { tierCommand } from './admin/tier.js';
import { startCommand } from './daemon/start.js';
import { statusCommand } from './daemon/status.js';
import { stopCommand } from './daemon/stop.js';
import { mailCommand } from './mail/list.js';
import { loginCommand } from './auth/login-factors.js';
import { totpDisableCommand } from './totp/disable.js';
import { totpEnableCommand } from './totp/enable.js';
import { totpStatusCommand } from './totp/status.js';
import { passkeysDeleteCommand } from './passkeys/delete.js';
import { passkeysListCommand } from './passkeys/list.js';

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
  // issue 4: passwordless logins and two-factor
  program.addCommand(loginCommand(makeCtx));
  program.addCommand(
    new Command('totp')
      .description('two-factor authentication with an authenticator app')
      .addCommand(totpEnableCommand(makeCtx))
      .addCommand(totpDisableCommand(makeCtx))
      .addCommand(totpStatusCommand(makeCtx)),
  );
  program.addCommand(
    new Command('passkeys')
      .description('the passkeys on your account (add them from a browser)')
      .addCommand(passkeysListCommand(makeCtx))
      .addCommand(passkeysDeleteCommand(makeCtx)),
  );
}
