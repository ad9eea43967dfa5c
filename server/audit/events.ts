import type { Selectable } from 'kysely';
import type { HistoryTable } from '../db/schema.js';
import { formatTimestamp } from '../flipt/timestamps.js';

/** An audit event as Flipt v1.47 sends it (version 0.2). */
export interface AuditEvent {
  version: '0.2';
  type: string;
  action: string;
  status: 'success';
  metadata: { actor: Record<string, string> };
  payload: unknown;
  timestamp: string;
}

/** The audit event of a history row: the payload's fields in snake_case, as Flipt's audit types name them. */
export function eventOf(row: Selectable<HistoryTable>): AuditEvent {
  return {
    version: '0.2',
    type: row.noun,
    action: row.action,
    status: 'success',
    metadata: { actor: JSON.parse(row.actor_metadata) as Record<string, string> },
    payload: snakeCase(JSON.parse(row.payload)),
    timestamp: formatTimestamp(row.created_at),
  };
}

/** Field names in snake_case, except inside a flag's `metadata`, whose keys are the user's own. */
function snakeCase(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeCase);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, field]) => [
      key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`),
      key === 'metadata' ? field : snakeCase(field),
    ]),
  );
}

/** Whether `audit.events` lets the event through. */
export function wanted(filters: { noun: string; verb: string }[], event: AuditEvent): boolean {
  return filters.some(
    ({ noun, verb }) => (noun === '*' || noun === event.type) && (verb === '*' || verb === event.action),
  );
}
