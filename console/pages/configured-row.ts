/** A configured event as GET /api/events?configured=true shows it to the console. */
export interface Configured {
  id: string;
  type: string;
  status: 'active' | 'paused' | 'armed';
  enabled?: boolean;
  tool_calls: { tool: string; args?: Record<string, unknown> }[];
  agent_id?: string | null;
  session_id?: string | null;
  quest_id?: string | null;
  matcher?: Record<string, unknown> | null;
  armed_reason?: string;
  names_that_fire?: string[];
  next_runs?: string[];
  timezone?: string | null;
}
