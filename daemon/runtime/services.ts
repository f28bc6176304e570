import type { CompanyRef } from '../gateway/seam.js';
import type { EventRow, EventSource } from '../../shared/event-row.js';

/**
 * What one Company's runtime offers to everything that is not HTTP: the MCP tools, the scheduler,
 * the detectors and the channels call these, and the REST routes are thin wrappers over them, so
 * a tool call and a REST call behave the same. Fields may grow; names here are relied on.
 * Refusals throw DomainError (domain-error.ts) with a clear message; the REST routes answer it as
 * 400/404/409 and the MCP tools as a tool error, so both answer alike.
 */
export interface Agent {
  id: string;
  name: string;
  role: string | null;
  created_at: string;
}

export interface TranscriptEntry {
  at: string;
  from: string;
  text: string;
}

export interface RuntimeSession {
  id: string;
  agent_id: string;
  /** `active` until stopped. */
  status: string;
  gateway_channel_id: string | null;
  /** The whole transcript on a read; the newest ANSWER_TAIL messages in the answer to a change. */
  transcript: TranscriptEntry[];
  /** How many messages the whole transcript holds. */
  transcript_total?: number;
  created_at: string;
  /** Issue 6 additions: `running` between a turn's start and its completion. */
  turn_status?: 'idle' | 'running';
  turns_completed?: number;
  /** Characters of transcript the session may hold before `context:budget:exceeded`; null: no budget. */
  context_budget?: number | null;
  context_used?: number;
  stopped_at?: string | null;
}

export type QuestStatus = 'open' | 'in_progress' | 'done' | 'failed';

export interface Quest {
  id: string;
  title: string;
  status: QuestStatus;
  agent_id: string | null;
  session_id: string | null;
  result: unknown;
  created_at: string;
  updated_at: string;
}

// The event row is a wire shape the console reads too, so it lives in shared/ (the console may not import daemon/).
export { EVENT_SOURCES, type EventRow, type EventSource } from '../../shared/event-row.js';

export interface ToolCall {
  tool: string;
  args: Record<string, unknown>;
}

/** A detector's matcher (issue 7); absent means: the pattern (and scope) alone decides. */
export type Matcher =
  | { kind: 'exact'; agent_id: string }
  | { kind: 'predicated'; field: string; regex: string; flags?: string }
  | { kind: 'window'; count: number; within_ms: number; group_by?: 'agent' | 'session' | null; cooldown_ms?: number };

/** A pattern plus the tool calls to run when it matches (spec §2.2). */
export interface ConfiguredEvent {
  id: string;
  type: string;
  tool_calls: ToolCall[];
  agent_id: string | null;
  session_id: string | null;
  quest_id: string | null;
  enabled: boolean;
  /** `armed`: no emitter produces the pattern, so it never fires (spec §3.5). */
  status: 'active' | 'paused' | 'armed';
  /** Shown (never stored) when armed: why, and the names its prefix's emitter does produce. */
  armed_reason?: string;
  names_that_fire?: string[];
  matcher?: Matcher | null;
  /** IANA zone of a `schedule:` pattern (UTC when absent). */
  timezone?: string | null;
  created_at: string;
  /** Issue 7: when it was last enabled (null while created paused); the scheduler's baseline. */
  enabled_at?: string | null;
}

export interface NewConfiguredEvent {
  type: string;
  tool_calls: ToolCall[];
  agent_id?: string | null;
  session_id?: string | null;
  quest_id?: string | null;
  enabled?: boolean;
  matcher?: Matcher | null;
  timezone?: string | null;
}

/** One tool call a configured event made, and how it went. */
export interface Firing {
  configured_event_id: string;
  tool: string;
  ok: boolean;
  result?: unknown;
  error?: string;
  /** Set when the call was not run at all: the causation depth guard stopped a likely loop. */
  skipped?: 'depth_limit';
}

/** A configured event that was considered for an event and did not fire, and why (CONTRACT §8). */
export interface NotFired {
  configured_event_id: string;
  reason: 'paused' | 'armed' | 'scope' | 'matcher' | 'cooldown' | 'depth';
}

export interface EventFilter {
  event_type?: string;
  agent_id?: string;
  session_id?: string;
  quest_id?: string;
  /** ISO timestamp: events created at or after it. */
  since?: string;
  /** Events strictly after this id. */
  since_id?: string;
  limit?: number;
}

export interface EmitInput {
  type: string;
  agent_id?: string | null;
  session_id?: string | null;
  quest_id?: string | null;
  content?: unknown;
  /** The event that caused this one (trace links); null/absent for a root cause. */
  caused_by?: string | null;
  /** Default: `tool_call` when caused by another event, else `emitter`. Routes set `manual` and `webhook`. */
  source?: EventSource;
  /** Issue 18: a repeat with this key within 24 h answers the first answer (`replayed`) and appends nothing. */
  idempotency_key?: string | null;
}

export interface Emitted {
  event: EventRow;
  fired: Firing[];
  /** The configured events of its pattern that did not fire, with why. */
  not_fired?: NotFired[];
  /** Set on the answer to a repeat of an `idempotency_key`: this is the first answer, nothing ran again. */
  replayed?: boolean;
}

export interface TraceNode {
  event: EventRow;
  fired: Firing[];
  not_fired: NotFired[];
  children: TraceNode[];
}

export interface EventsService {
  create(input: NewConfiguredEvent): Promise<ConfiguredEvent>;
  get(id: string): Promise<ConfiguredEvent | undefined>;
  /** `prefix`: only patterns `<prefix>:…` (the scheduler lists `schedule` ones through the store's index). */
  listConfigured(
    filter?: Omit<EventFilter, 'since' | 'since_id' | 'limit'> & { prefix?: string },
  ): Promise<ConfiguredEvent[]>;
  setEnabled(id: string, enabled: boolean): Promise<ConfiguredEvent>;
  delete(id: string): Promise<void>;
  /** Oldest first; `next_since_id` is the cursor of the next page (null when this page is the end). */
  list(filter?: EventFilter): Promise<{ events: EventRow[]; next_since_id: string | null }>;
  /** Appends an occurrence (acknowledged once on disk), dispatches it, returns what fired. */
  emit(input: EmitInput): Promise<Emitted>;
  /** Fires one configured event's tool calls now (trigger by id, a schedule tick), logged as an occurrence of its pattern. */
  fire(
    configuredId: string,
    options?: { content?: unknown; caused_by?: string | null; source?: EventSource },
  ): Promise<Emitted>;
  /** Wave 2: runs `run` once per idempotency key within 24 h; a repeat gets the first answer (`replayed`). */
  once?<T>(
    scope: string,
    key: string,
    request: unknown,
    run: () => Promise<T>,
  ): Promise<{ answer: T; replayed: boolean }>;
  trace(eventId: string): Promise<TraceNode | null>;
  /** Calls `listener` with every event once it is on disk (detectors, channels, live streams). Returns an unsubscribe. */
  subscribe(listener: (event: EventRow) => void): () => void;
  /** Issue 6 addition: replaces a configured event's tool calls and/or matcher (how seeded lifecycle markers are extended). */
  update?(
    id: string,
    change: { tool_calls?: ToolCall[]; matcher?: Matcher | null; enabled?: boolean },
  ): Promise<ConfiguredEvent>;
  /** Issue 6 additions: one logged occurrence by id, and the id of the newest one (a live follower's start). */
  occurrence?(id: string): Promise<EventRow | undefined>;
  lastId?(): Promise<string | null>;
  /** Issue 6 addition: ends every pending long-poll now (and any started later) so a shutdown is not held open. */
  releaseWaiters?(): void;
  /** Issue 6 addition: calls `fn` once when waiters are released; returns an unsubscribe. */
  onRelease?(fn: () => void): () => void;
}

export interface CompanyServices {
  company: CompanyRef;
  agents: {
    create(input: { name: string; role?: string | null }): Promise<Agent>;
    get(id: string): Promise<Agent | undefined>;
    list(): Promise<Agent[]>;
  };
  sessions: {
    create(
      input: { agent_id: string; gateway_channel_id?: string | null; context_budget?: number | null },
      caused_by?: string | null,
    ): Promise<RuntimeSession>;
    get(id: string): Promise<RuntimeSession | undefined>;
    list(filter?: { agent_id?: string; status?: string; gateway_channel_id?: string }): Promise<RuntimeSession[]>;
    stop(id: string, caused_by?: string | null): Promise<RuntimeSession>;
    /** Appends a message to the transcript; `startTurn` also begins an execution (session:execution_start). */
    /** `external`: the text came from outside (an inbound channel): never counted as the agent's own output. */
    append(
      id: string,
      entry: { from: string; text: string },
      options?: { startTurn?: boolean; caused_by?: string | null; external?: boolean },
    ): Promise<RuntimeSession>;
    /** Issue 6 additions: the turn cycle (session:execution_start, session:step_start, session:first_execution_complete) and field updates. */
    startTurn?(id: string, caused_by?: string | null): Promise<RuntimeSession>;
    step?(id: string, caused_by?: string | null): Promise<RuntimeSession>;
    completeTurn?(id: string, caused_by?: string | null): Promise<RuntimeSession>;
    update?(
      id: string,
      change: { gateway_channel_id?: string | null; context_budget?: number | null; status?: 'stopped' },
      caused_by?: string | null,
    ): Promise<RuntimeSession>;
  };
  quests: {
    create(
      input: { title: string; agent_id?: string | null; session_id?: string | null },
      caused_by?: string | null,
    ): Promise<Quest>;
    get(id: string): Promise<Quest | undefined>;
    list(filter?: { status?: QuestStatus; agent_id?: string; session_id?: string }): Promise<Quest[]>;
    update(
      id: string,
      change: {
        status?: QuestStatus;
        result?: unknown;
        agent_id?: string | null;
        session_id?: string | null;
        title?: string;
      },
      caused_by?: string | null,
    ): Promise<Quest>;
  };
  /** Sends a message to an agent id, or to a role (one of its agents is picked). */
  messageTo(
    input: { to: string; text: string },
    caused_by?: string | null,
  ): Promise<{ agent_id: string; session_id: string | null }>;
  events: EventsService;
}
