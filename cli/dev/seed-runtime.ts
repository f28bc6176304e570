import { ApiRequestError, UsageError } from '../errors.js';
import { linked } from './references.js';
import { ownerApi, type SeedLine, type SeedRun } from './seed-run.js';
import type { SeedKind } from './seed-file.js';

/** The Company-side kinds: agents (found by name), sessions and configured events (found through the state file). */
export async function seedRuntimeKind(
  run: SeedRun,
  kind: SeedKind,
  name: string,
  e: Record<string, unknown>,
  where: string,
): Promise<SeedLine> {
  const company = linked(run.made, 'companies', e.company, `${where}.company`);
  const owner = ownerApi(run, company);
  const headers = { 'X-Company': String(company.id) };
  const api = {
    get: <T>(path: string) => owner.get<T>(path, { headers }),
    post: <T>(path: string, body: unknown) => owner.post<T>(path, body, { headers }),
  };
  const { company: _c, agent, session, ...fields } = e;
  const body: Record<string, unknown> = { ...fields };
  if (agent !== undefined) body.agent_id = linked(run.made, 'agents', agent, `${where}.agent`).id;
  if (session !== undefined) body.session_id = linked(run.made, 'sessions', session, `${where}.session`).id;

  if (kind === 'agents') {
    const label = typeof e.name === 'string' ? e.name : name;
    const list = await api.get<{ agents: Array<Record<string, unknown>> }>('/api/agents');
    const found = list.agents.find((a) => a.name === label);
    const agentRow =
      found ?? (await api.post<{ agent: Record<string, unknown> }>('/api/agents', { ...body, name: label })).agent;
    run.made.agents[name] = { ...agentRow, company_id: company.id };
    return { kind, name, id: String(agentRow.id), created: !found };
  }
  const stateKey = `${kind}:${company.id}:${name}`;
  const path = kind === 'sessions' ? '/api/sessions' : '/api/events';
  const field = kind === 'sessions' ? 'session' : 'event';
  const known = run.state.ids[stateKey];
  if (known) {
    const found = await getOrNull(api, `${path}/${encodeURIComponent(known)}`, field);
    if (found) {
      run.made[kind][name] = { ...found, company_id: company.id };
      return { kind, name, id: known, created: false };
    }
  }
  if (kind === 'events' && (typeof body.type !== 'string' || !Array.isArray(body.tool_calls)))
    throw new UsageError(`${where}: a configured event needs "type" and "tool_calls"`);
  if (kind === 'sessions' && body.agent_id === undefined) throw new UsageError(`${where}: a session needs "agent"`);
  const res = await api.post<Record<string, Record<string, unknown>>>(path, body);
  const row = res[field]!;
  run.state.ids[stateKey] = String(row.id);
  run.made[kind][name] = { ...row, company_id: company.id };
  return { kind, name, id: String(row.id), created: true };
}

async function getOrNull(
  api: { get<T>(path: string): Promise<T> },
  path: string,
  field: string,
): Promise<Record<string, unknown> | null> {
  try {
    return (await api.get<Record<string, Record<string, unknown>>>(path))[field] ?? null;
  } catch (err) {
    if (err instanceof ApiRequestError && err.status === 404) return null;
    throw err;
  }
}
