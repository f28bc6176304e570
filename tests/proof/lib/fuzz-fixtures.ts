import { call, expectStatus, operatorHeaders } from './client.js';

/**
 * The records the fuzz's requests aim at, made over HTTP on its daemon: one of each kind a route
 * takes an id of (robustness-world.ts makes the same set in-process), and an invite code.
 */
export async function makeFixtures(url: string, tenant: Record<string, string>, dataDir: string) {
  const made = async (path: string, body: unknown, field: string) =>
    expectStatus(await call(url, path, { headers: tenant, body }), 201, field).body[field];
  const agent = await made('/api/agents', { name: 'ada', role: 'dev' }, 'agent');
  const session = await made('/api/sessions', { agent_id: agent.id }, 'session');
  const quest = await made('/api/quests', { title: 'q' }, 'quest');
  const configured = await made('/api/events', { type: 'agent:thing', tool_calls: [] }, 'event');
  const question = await made('/api/questions', { agent_id: agent.id, question: 'ok?' }, 'question');
  const channel = await made('/api/channels', { name: 'inbox' }, 'channel');
  const invite = (await call(url, '/api/dev/invites', { method: 'POST', headers: operatorHeaders(dataDir) })).body
    .code as string;
  return { agent, session, quest, configured, question, channel, invite };
}
