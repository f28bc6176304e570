/**
 * Tool calls of configured events that failed for good (after their retries, or with none), kept
 * so they can be listed and replayed once their cause is fixed. One record per call of a firing.
 */
import type { ToolCall } from '../../shared/runtime-records.js';

export interface FailureRecord {
  /** `<event id>|<configured event id>|<call index>`: one per call of a firing. */
  id: string;
  event_id: string;
  configured_event_id: string;
  call_index: number;
  /** The call as it ran (its args before `{{event.…}}` was resolved). */
  call: ToolCall;
  tool: string;
  error: string;
  attempts: number;
  failed_at: string;
  /** Set once, when a replay takes the failure: a second replay of it does nothing. */
  replayed_at: string | null;
  /** The `replay` event its replay ran under. */
  replay_event_id: string | null;
}

export interface FailureStore {
  /** Records a failure (a record of the same id is replaced: the same call failed again). */
  add(record: FailureRecord): Promise<void>;
  get(id: string): Promise<FailureRecord | undefined>;
  /** Oldest first. */
  list(filter?: { configured_event_id?: string }): Promise<FailureRecord[]>;
  /** Takes the failure for a replay: atomically, once (undefined: no such failure, or already taken). */
  claimReplay(id: string, atIso: string): Promise<FailureRecord | undefined>;
  /** Notes the replay event once the replay ran. */
  setReplayEvent(id: string, eventId: string): Promise<void>;
}
