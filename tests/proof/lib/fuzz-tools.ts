import type { WorldIds } from '../../daemon/http/robustness-world.js';
import { BAD_VALUES } from '../../helpers/bad-inputs.js';
import type { FuzzRequest } from './fuzz-cases.js';
import { bodyWith, JSON_VALUES, valuesFor, type SweepDepth } from './fuzz-sweep.js';

/** A tool as tools/list describes it: its arguments, and the actions where it has them. */
export interface ListedTool {
  name: string;
  inputSchema?: { properties?: Record<string, { enum?: string[] }> };
}

/**
 * Arguments that get each action past its own checks, so a hostile value in one other argument
 * reaches the service and the store. Actions that end a record (delete, stop) get none: the
 * fixtures must outlive the sweep.
 */
function validArguments(ids: WorldIds): Record<string, Record<string, Record<string, unknown>>> {
  return {
    events: {
      create: { type: 'agent:thing' },
      trigger: { type: 'agent:thing' },
      enable: { id: ids.configured },
      disable: { id: ids.configured },
    },
    quests: { create: { title: 'q' }, get: { id: ids.quest }, update: { id: ids.quest } },
    sessions: { create: { agent_id: ids.agent }, get: { id: ids.session }, compact: { id: ids.session } },
    agents: { create: { name: 'swept' } },
    message_to: { '': { to: 'dev', text: 'hi' } },
    quests_read: { get: { id: ids.quest } },
    sessions_read: { get: { id: ids.session } },
  };
}

const envelope = (name: string, args: Record<string, unknown>, id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

/** The sweep over MCP: every argument of every action of every tool, one hostile value at a time. */
export function* sweepTools(
  tools: ListedTool[],
  ids: WorldIds,
  headers: Record<string, string>,
  depth: SweepDepth,
  values: readonly string[] = JSON_VALUES,
): Generator<FuzzRequest> {
  const valid = validArguments(ids);
  let i = 0;
  for (const tool of tools) {
    const props = tool.inputSchema?.properties ?? {};
    for (const action of props.action?.enum ?? ['']) {
      const args = { ...(action ? { action } : {}), ...valid[tool.name]?.[action] };
      for (const prop of Object.keys(props).filter((p) => p !== 'action')) {
        for (const v of valuesFor(values, i++, depth))
          yield {
            route: `MCP ${tool.name}${action ? ` ${action}` : ''}`,
            method: 'POST',
            path: '/api/mcp',
            headers,
            raw: bodyWith(envelope(tool.name, args, i), ['params', 'arguments', prop], v),
            slot: `MCP ${tool.name} ${action} ${prop} = ${v}`,
          };
      }
    }
  }
}

/** `n` random tool calls: all arguments bad at once, each bad in turn, or an extra one. */
export function randomToolCalls(tools: ListedTool[], headers: Record<string, string>, n: number): FuzzRequest[] {
  return Array.from({ length: tools.length ? n : 0 }, (_, i) => {
    const tool = tools[i % tools.length]!;
    const props = Object.keys(tool.inputSchema?.properties ?? {});
    const bad = BAD_VALUES[i % BAD_VALUES.length];
    const args =
      i % 3 === 0
        ? bad
        : i % 3 === 1
          ? Object.fromEntries(props.map((p) => [p, bad]))
          : { ...Object.fromEntries(props.slice(1).map((p) => [p, 'x'])), extra: bad };
    return {
      route: `MCP ${tool.name}`,
      method: 'POST',
      path: '/api/mcp',
      headers,
      raw: JSON.stringify(envelope(tool.name, args as Record<string, unknown>, i)),
    };
  });
}
