/**
 * A plausible valid body per route (`METHOD path`, as the router declares it), for the sweep's
 * one-field-at-a-time mutations: a bad value in one field while the others pass, so the input
 * gets past the first check and into the code behind it. Values are chosen not to end the
 * test user's session or stop the test's records (wrong passwords, other e-mails).
 */
export interface TemplateWorld {
  owner: { user: { email: string | null } };
  company: { id: string };
  ids: { agent: string; session: string; quest: string; configured: string; question: string; channel: string };
  invite: string;
}

const b64 = 'AAAA';
const address = '0x' + 'ab'.repeat(20);
const signature = '0x' + '1b'.repeat(65);

/** One template, or several where a route takes more than one shape. */
export type Templates = Record<string, Record<string, unknown> | Record<string, unknown>[]>;

export function validTemplates(w: TemplateWorld): Templates {
  const email = 'someone-else@example.com';
  const password = 'a wrong password, long enough';
  return {
    'POST /api/auth/signup': { email: 'new-user@example.com', password, invite_code: w.invite },
    'POST /api/auth/verify': { email, code: '123456' },
    'POST /api/auth/resend-code': { email },
    'POST /api/auth/login': { email: w.owner.user.email, password },
    'POST /api/auth/login/email': { email: w.owner.user.email, password },
    'POST /api/auth/forgot-password': { email },
    'POST /api/auth/reset-password': { token: 'x'.repeat(43), password },
    'POST /api/auth/change-password': { current_password: password, new_password: password + '!' },
    'POST /api/auth/update-profile': { display_name: 'Ada', timezone: 'Europe/Paris', locale: 'en-GB' },
    'POST /api/auth/update-avatar': { avatar: 'data:image/png;base64,iVBORw0KGgo=' },
    'POST /api/auth/welcome/profile-name': { name: 'Ada' },
    'POST /api/auth/sessions/revoke': { session_id: 'ses_nope' },
    'POST /api/me/email/change/begin': { new_email: email, password },
    'POST /api/me/email/change/finish': { code: '123456' },
    'POST /api/auth/totp/login': { partial_token: 'a.b.c', code: '123456' },
    'POST /api/auth/totp/enroll/confirm': { code: '123456' },
    'POST /api/auth/totp/disable': { code: '123456', password },
    'POST /api/auth/totp/recovery-codes': { code: '123456' },
    'POST /api/auth/login/code/request': { email },
    'POST /api/auth/login/code/consume': { email, code: '123456' },
    'POST /api/auth/login/magic/consume': { token: 'x'.repeat(43) },
    'POST /api/auth/wallet/nonce': { address },
    'POST /api/auth/wallet/login': { message: 'example.com wants you to sign in', signature },
    'POST /api/auth/wallet/signup': { message: 'example.com wants you to sign in', signature, invite_code: w.invite },
    'POST /api/auth/passkey/register-begin': { name: 'laptop' },
    'POST /api/auth/passkey/register-finish': {
      name: 'laptop',
      response: {
        id: b64,
        rawId: b64,
        type: 'public-key',
        response: { clientDataJSON: b64, attestationObject: b64, transports: ['usb'] },
      },
    },
    'POST /api/auth/passkey/login-finish': {
      response: {
        id: b64,
        rawId: b64,
        type: 'public-key',
        response: { clientDataJSON: b64, authenticatorData: b64, signature: b64 },
      },
    },
    'POST /api/companies': { name: 'second co' },
    'POST /api/keys': { root: w.company.id, name: 'k' },
    'POST /api/dev/tier': { email, tier: 'starter' },
    'POST /api/mcp': [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'quests', arguments: { action: 'update', id: w.ids.quest, result: { a: 1 } } },
      },
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'events', arguments: { action: 'trigger', type: 'agent:thing', content: { a: 1 } } },
      },
    ],
    'POST /api/mcp/validate': { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
    'POST /api/agents': { name: 'bob', role: 'ops' },
    'POST /api/sessions': { agent_id: w.ids.agent, gateway_channel_id: 'ch', context_budget: 10 },
    'PATCH /api/sessions/:id': { gateway_channel_id: 'ch', context_budget: 10 },
    'POST /api/sessions/:id': { gateway_channel_id: 'ch', context_budget: 10 },
    'POST /api/sessions/:id/messages': { text: 'hi', from: 'user', start_turn: false },
    'POST /api/quests': { title: 't', agent_id: w.ids.agent, session_id: w.ids.session },
    'PATCH /api/quests/:id': {
      status: 'in_progress',
      result: { a: 1 },
      title: 't',
      agent_id: w.ids.agent,
      session_id: w.ids.session,
    },
    'POST /api/quests/:id': { status: 'open', title: 't' },
    'POST /api/messages': { to: w.ids.agent, text: 'hi', from: 'me' },
    'POST /api/events': {
      type: 'session:start',
      tool_calls: [{ tool: 'quests.create', args: { title: 't' } }],
      agent_id: w.ids.agent,
      session_id: w.ids.session,
      quest_id: w.ids.quest,
      enabled: true,
      matcher: { kind: 'exact', agent_id: w.ids.agent },
      timezone: 'UTC',
    },
    'POST /api/events/trigger': [
      {
        type: 'agent:thing',
        agent_id: w.ids.agent,
        session_id: w.ids.session,
        quest_id: w.ids.quest,
        content: { a: 1 },
      },
      { configured_event_id: w.ids.configured, content: { a: 1 } },
    ],
    'POST /api/events/trace': { event_id: 'evt_nope' },
    'PATCH /api/events/:id': {
      tool_calls: [{ tool: 'message_to', args: { to: 'dev', text: 'x' } }],
      matcher: null,
      enabled: false,
    },
    'POST /api/events/:id': { enabled: true },
    'POST /api/detectors/report': [
      {
        cause: 'command',
        agent_id: w.ids.agent,
        session_id: w.ids.session,
        command: 'make',
        exit_code: 2,
        stderr: 'x',
      },
      { cause: 'output', agent_id: w.ids.agent, text: 'TODO: later' },
      { cause: 'tool_call', agent_id: w.ids.agent, tool: 'shell', args: { cmd: 'ls' } },
      { cause: 'proposed_change', agent_id: w.ids.agent, files: ['a.ts'], lines_changed: 3, summary: 's' },
      { cause: 'idea', agent_id: w.ids.agent, quest_id: w.ids.quest, text: 'an idea' },
    ],
    'POST /api/questions': { agent_id: w.ids.agent, session_id: w.ids.session, question: 'ok?', options: ['y', 'n'] },
    'POST /api/questions/:id/answer': { answer: 'yes', answered_by: 'ada' },
    'POST /api/channels': { name: 'second-inbox' },
    'POST /api/channels/:name/rotate': { grace_ms: 1000 },
  };
}
