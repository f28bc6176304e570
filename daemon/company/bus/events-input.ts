import * as z from 'zod';
import { boundedJson } from '../../http/json-depth.js';
import { storableText } from '../../../shared/schemas/storable-text.js';
import { EVENT_SOURCES } from '../company-services.js';

// Ids and types are compared with the event log's columns, so they are checked as stored text
// here, where REST and MCP callers meet, with the log's own check (checkInput) behind it.
const key = z.string().min(1).max(200).check(storableText);
const idField = key.nullable().optional();
export const emitSchema = z.object({
  type: key,
  agent_id: idField,
  session_id: idField,
  quest_id: idField,
  content: boundedJson.optional(),
  caused_by: idField,
  source: z.enum(EVENT_SOURCES).optional(),
});

export const fireSchema = z.object({ content: boundedJson.optional(), source: z.enum(EVENT_SOURCES).optional() });

/** The same checks GET /api/events makes, for callers that are not HTTP (MCP tools). */
export const filterSchema = z.object({
  event_type: key.optional(),
  agent_id: key.optional(),
  session_id: key.optional(),
  quest_id: key.optional(),
  since: z.iso
    .datetime({ offset: true, message: 'since must be an ISO 8601 timestamp, e.g. 2026-01-15T12:00:00Z' })
    .optional(),
  since_id: z.string().min(1).max(200).optional(),
  limit: z.number().int().min(1).max(1000).optional(),
});
