/**
 * Who put each event in the log (CONTRACT §8: emitter, schedule, webhook, tool_call, manual). The
 * first schema had no column for it, so a read guessed from the cause and the prefix, and a manual
 * trigger or a webhook delivery came back as `emitter`. Rows written before this migration keep a
 * null and are still guessed; every new row stores what its writer said.
 */
export const eventSourceSchema = `
ALTER TABLE svc_events ADD COLUMN source text
  CHECK (source IS NULL OR source IN ('emitter', 'schedule', 'webhook', 'tool_call', 'manual'));
`;
