import { Command } from 'commander';
import type { ContextFactory } from '../command.js';
import { inviteCommand } from './admin/invite.js';
import { tierCommand } from './admin/tier.js';
import { startCommand } from './daemon/start.js';
import { statusCommand } from './daemon/status.js';
import { stopCommand } from './daemon/stop.js';
import { mailCommand } from './mail/list.js';
import { accountKeyRotateCommand } from './account-key/rotate.js';
import { companiesCreateCommand } from './companies/create.js';
import { companiesListCommand } from './companies/list.js';
import { companiesUseCommand } from './companies/use.js';
import { keysCreateCommand } from './keys/create.js';
import { keysListCommand } from './keys/list.js';
import { keysRevokeCommand } from './keys/revoke.js';
import { keysValidateCommand } from './keys/validate.js';
import { totpDisableCommand } from './totp/disable.js';
import { totpEnableCommand } from './totp/enable.js';
import { totpStatusCommand } from './totp/status.js';
import { passkeysDeleteCommand } from './passkeys/delete.js';
import { passkeysListCommand } from './passkeys/list.js';
import { callCommand as mcpCallCommand } from './mcp/call.js';
import { mcpCommand } from './mcp/serve.js';
import { toolsCommand as mcpToolsCommand } from './mcp/tools.js';
import { listCommand as eventsListCommand } from './events/list.js';
import { tailCommand as eventsTailCommand } from './events/tail.js';
import { createCommand as eventsCreateCommand } from './events/create.js';
import { enableCommand as eventsEnableCommand } from './events/enable.js';
import { disableCommand as eventsDisableCommand } from './events/disable.js';
import { deleteCommand as eventsDeleteCommand } from './events/delete.js';
import { triggerCommand as eventsTriggerCommand } from './events/trigger.js';
import { traceCommand as eventsTraceCommand } from './events/trace.js';
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
import { webhookCommand } from './webhook/send.js';
import { channelsCreateCommand } from './channels/create.js';
import { channelsListCommand } from './channels/list.js';
import { channelsRotateCommand } from './channels/rotate.js';
import { channelsDeleteCommand } from './channels/delete.js';

/** Every command, grouped by noun. A command's file is cli/commands/<noun>/<verb>.ts. */
export function registerCommands(program: Command, makeCtx: ContextFactory): void {
  // your account
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
  // Companies and keys
  program.addCommand(
    new Command('companies')
      .description('your Companies: create, list, choose the current one')
      .addCommand(companiesCreateCommand(makeCtx))
      .addCommand(companiesListCommand(makeCtx))
      .addCommand(companiesUseCommand(makeCtx)),
  );
  program.addCommand(
    new Command('keys')
      .description('secret keys (sk_) for MCP clients and scripts')
      .addCommand(keysCreateCommand(makeCtx))
      .addCommand(keysListCommand(makeCtx))
      .addCommand(keysRevokeCommand(makeCtx))
      .addCommand(keysValidateCommand(makeCtx)),
  );
  program.addCommand(new Command('account-key').description('your account key (ak_)').addCommand(accountKeyRotateCommand(makeCtx)));
  // events and channels
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
  program.addCommand(
    new Command('channels')
      .description('inbound webhook channels of a Company: create, list, rotate, delete')
      .addCommand(channelsCreateCommand(makeCtx))
      .addCommand(channelsListCommand(makeCtx))
      .addCommand(channelsRotateCommand(makeCtx))
      .addCommand(channelsDeleteCommand(makeCtx)),
  );
  program.addCommand(webhookCommand(makeCtx));
  // MCP
  program.addCommand(mcpCommand(makeCtx, [mcpCallCommand(makeCtx), mcpToolsCommand(makeCtx)]));
  // a local daemon and its operator surface
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
}
