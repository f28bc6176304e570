import { agentsTool } from './agents.js';
import { eventsTool } from './events.js';
import { messageToTool } from './message-to.js';
import { questsTool } from './quests.js';
import { agentsReadTool, eventsReadTool, questsReadTool, sessionsReadTool } from './read-tools.js';
import { sessionsTool } from './sessions.js';
import type { McpTool } from './types.js';
import { whoamiTool } from './whoami.js';

/** Every tool /api/mcp offers, in the order tools/list shows them; the read-only halves (read-tools.ts) last. */
export const ALL_TOOLS: McpTool[] = [
  whoamiTool,
  eventsTool,
  questsTool,
  agentsTool,
  sessionsTool,
  messageToTool,
  eventsReadTool,
  questsReadTool,
  agentsReadTool,
  sessionsReadTool,
];
