import type {
  Agent,
  ConfiguredEvent,
  EmitInput,
  Emitted,
  EventFilter,
  EventRow,
  EventSource,
  Matcher,
  NewConfiguredEvent,
  Quest,
  QuestStatus,
  RetryPolicy,
  RuntimeSession,
  SchedulePolicy,
  ToolCall,
  TraceNode,
} from '../../shared/runtime-records.js';

/** What starting a compaction answers: `started` false when one is already pending for the session. */
export interface CompactAnswer {
  started: boolean;
  session: RuntimeSession;
  quest: Quest | null;
}

/** The Company a runtime serves (the gateway hands it over at the seam, seam.ts). */
export interface CompanyRef {
  id: string;
  name: string;
  owner_id: string;
}

// The record shapes are wire shapes in shared/; re-exported so daemon code keeps one import.
export * from '../../shared/runtime-records.js';

/**
 * What one Company's runtime offers to everything that is not HTTP: the MCP tools, the scheduler,
 * the detectors and the channels call these, and the REST routes are thin wrappers over them, so
 * a tool call and a REST call behave the same. Fields may grow; names here are relied on.
 * Refusals throw DomainError (domain-error.ts) with a clear message; the REST routes answer it as
 * 400/404/409 and the MCP tools as a tool error, so both answer alike.
 */
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
  /**
   * Fires one configured event's tool calls now (trigger by id, a schedule tick), logged as an occurrence of its pattern.
   * `skip`: the occurrence is logged and its trace says why the rule did not fire, but nothing runs (a tick its schedule's overlap policy skipped).
   */
  fire(
    configuredId: string,
    options?: { content?: unknown; caused_by?: string | null; source?: EventSource; skip?: 'overlap' },
  ): Promise<Emitted>;
  /** Runs `run` once per idempotency key within 24 h; a repeat gets the first answer (`replayed`). */
  once?<T>(
    scope: string,
    key: string,
    request: unknown,
    run: () => Promise<T>,
  ): Promise<{ answer: T; replayed: boolean }>;
  trace(eventId: string): Promise<TraceNode | null>;
  /** Calls `listener` with every event once it is on disk (detectors, channels, live streams). Returns an unsubscribe. */
  subscribe(listener: (event: EventRow) => void): () => void;
  /** Replaces a configured event's tool calls and/or matcher (how seeded lifecycle markers are extended). */
  update?(
    id: string,
    change: {
      tool_calls?: ToolCall[];
      matcher?: Matcher | null;
      enabled?: boolean;
      retry?: RetryPolicy | null;
      schedule_policy?: SchedulePolicy | null;
    },
  ): Promise<ConfiguredEvent>;
  /** One logged occurrence by id, and the id of the newest one (a live follower's start). */
  occurrence?(id: string): Promise<EventRow | undefined>;
  lastId?(): Promise<string | null>;
  /** Ends every pending long-poll now (and any started later) so a shutdown is not held open. */
  releaseWaiters?(): void;
  /** Calls `fn` once when waiters are released; returns an unsubscribe. */
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
    /** The turn cycle (session:execution_start, session:step_start, session:first_execution_complete) and field updates. */
    startTurn?(id: string, caused_by?: string | null): Promise<RuntimeSession>;
    step?(id: string, caused_by?: string | null): Promise<RuntimeSession>;
    completeTurn?(id: string, caused_by?: string | null): Promise<RuntimeSession>;
    update?(
      id: string,
      change: { gateway_channel_id?: string | null; context_budget?: number | null; status?: 'stopped' },
      caused_by?: string | null,
    ): Promise<RuntimeSession>;
    /** Hands the transcript off as a quest to `role` (default: the daemon's compaction role). */
    compact?(id: string, options?: { role?: string }, caused_by?: string | null): Promise<CompactAnswer>;
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
    input: { to: string; text: string; from?: string },
    caused_by?: string | null,
  ): Promise<{ agent_id: string; session_id: string | null }>;
  events: EventsService;
}
