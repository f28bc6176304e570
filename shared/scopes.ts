/**
 * The scopes a secret key can carry: `resource:verb`, one per kind of thing a caller may do in a
 * Company (docs/keys.md has the table). Shared by the daemon (the permission check, the keys
 * routes) and the CLI (`svc keys create --scope`). A key without scopes has every scope.
 */
export const SCOPES = {
  'agents:read': 'list and read agents',
  'agents:write': 'create agents',
  'sessions:read': 'list and read sessions',
  'sessions:write': 'create, update, stop and compact sessions, record turns and steps',
  'quests:read': 'list and read quests',
  'quests:write': 'create and update quests',
  'messages:send': 'send a message to an agent or into a session',
  'events:read': 'list, read, trace and stream events and configured events',
  'events:write': 'create, update, enable, disable and delete configured events',
  'events:trigger': 'trigger an event (which fires what is configured for it)',
  'detectors:report': 'report what a runtime detector saw (it becomes an event)',
  'questions:read': 'list the questions agents asked',
  'questions:write': 'ask a question and answer one',
  'channels:read': 'list inbound webhook channels',
  'channels:write': 'create, rotate the secret of and delete inbound webhook channels',
  'audit:read': "read the audit trail of the key's Company (GET /api/audit)",
} as const;

export type Scope = keyof typeof SCOPES;

export const ALL_SCOPES = Object.keys(SCOPES) as Scope[];

export const isScope = (value: string): value is Scope => Object.hasOwn(SCOPES, value);
