import type { CompanyRef } from '../../daemon/company/seam.js';
import type { CompanyServices } from '../../daemon/company/company-services.js';
import { createUser, type TestUser } from './accounts.js';
import { createCompany, createSecretKey, rotateAccountKey } from './keys.js';
import { createTestApp, type TestApp, type TestAppOptions, type TestResponse } from './test-app.js';

/** Every MCP tool, in the order tools/list gives them to a key that may call them all: the six tools, then their read-only halves. */
export const ALL_TOOLS = [
  'whoami',
  'events',
  'quests',
  'agents',
  'sessions',
  'message_to',
  'events_read',
  'quests_read',
  'agents_read',
  'sessions_read',
];

/** Real keys, made through the key routes: a company-tier owner's sk_ and ak_, and an sk_ whose owner is now on the trial tier. */
export interface McpKeys {
  secret: string;
  secretId: string;
  account: string;
  trial: string;
}

export interface McpTestApp extends TestApp {
  owner: TestUser;
  company: CompanyRef;
  keys: McpKeys;
  /** The key's Company runtime (the real one the endpoint's tools act on). */
  services(): Promise<CompanyServices>;
  /** A raw POST to /api/mcp with the good secret key and both Accept types unless `headers` overrides them. */
  mcp(body: unknown, headers?: Record<string, string>): Promise<TestResponse>;
  raw(options: { method?: string; payload?: string; headers?: Record<string, string> }): Promise<TestResponse>;
}

/**
 * The whole daemon in-process (createTestApp: real routes, the real key guard, the real runtime
 * host) with an owner on the company tier, their Company, a secret key and an account key, plus a
 * second user's key that passes authentication but not the tier gate (402): a tier can change after
 * keys were made, which is the only way a trial account holds one.
 */
export async function createMcpTestApp(options: TestAppOptions = {}): Promise<McpTestApp> {
  const t = await createTestApp(options);
  const owner = await createUser(t, { tier: 'company' });
  const co = await createCompany(t, owner, 'acme');
  const secret = await createSecretKey(t, owner, co.id, 'mcp test');
  const account = await rotateAccountKey(t, owner);

  const lapsed = await createUser(t, { tier: 'company' });
  const lapsedCo = await createCompany(t, lapsed, 'lapsed');
  const trial = await createSecretKey(t, lapsed, lapsedCo.id, 'lapsed key');
  await t.deps.stores.users.setTier(lapsed.user.id, 'trial');

  const company: CompanyRef = { id: co.id, name: co.name, owner_id: owner.user.id };
  const raw: McpTestApp['raw'] = ({ method = 'POST', payload, headers = {} }) =>
    t.request({
      method: method as 'POST',
      url: '/api/mcp',
      payload,
      headers: {
        authorization: `Bearer ${secret.key}`,
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        ...headers,
      },
    });
  return {
    ...t,
    owner,
    company,
    keys: { secret: secret.key, secretId: secret.id, account, trial: trial.key },
    services: async () => (await t.deps.runtimes.open(company)).services,
    raw,
    mcp: (body, headers) => raw({ payload: typeof body === 'string' ? body : JSON.stringify(body), headers }),
  };
}

let nextToolCallId = 1;

/** Calls the `events` tool over /api/mcp: its structured answer, or `{ error }` with the tool error's text. */
export const callEventsTool = (t: McpTestApp, args: Record<string, unknown>): Promise<any> =>
  callMcpTool(t, 'events', args);

/** Calls one tool over /api/mcp: its structured answer, or `{ error }` with the tool error's text. */
export async function callMcpTool(t: McpTestApp, name: string, args: Record<string, unknown>): Promise<any> {
  const res = await t.mcp({
    jsonrpc: '2.0',
    id: nextToolCallId++,
    method: 'tools/call',
    params: { name, arguments: args },
  });
  const r = res.body.result as { isError?: boolean; content: { text: string }[]; structuredContent?: any };
  return r.isError ? { error: r.content[0]!.text } : r.structuredContent;
}
