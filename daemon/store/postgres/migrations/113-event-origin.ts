/**
 * The call an event came from (shared/event-row.ts `origin`): set on events appended while an MCP
 * tools/call or a keyed REST call ran, null on every other row and on rows older than the column.
 */
export const eventOriginSchema = `
ALTER TABLE svc_events ADD COLUMN origin json;
`;
