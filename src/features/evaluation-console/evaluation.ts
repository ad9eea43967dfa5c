import type { AnyEvaluation, EvaluationReason } from '../../../domain/evaluation/index';
import type { FlagType } from '../../../domain/flipt/types';
import { EVALUATE, INTERNAL } from '../../api/client';
import { isContextValue } from '../../lib/validation';

/** The body of `POST evaluate/v1/variant` and `evaluate/v1/boolean`. */
export interface EvaluationBody {
  namespaceKey: string;
  flagKey: string;
  entityId: string;
  context: Record<string, string>;
}

/** What the server answers; Flipt v1.47 sends no segmentKeys for boolean flags. */
export interface ServerAnswer {
  flagKey: string;
  reason: EvaluationReason;
  match?: boolean;
  variantKey?: string;
  enabled?: boolean;
  segmentKeys?: string[];
  [field: string]: unknown;
}

/** Empty (no context) or a JSON object whose values are all strings. */
export const isContextOrEmpty = (text: string) => text.trim() === '' || isContextValue(text);

/** The context of a valid context text. */
export function parseContext(text: string): Record<string, string> {
  return text.trim() === '' ? {} : (JSON.parse(text) as Record<string, string>);
}

export function evaluationPath(type: FlagType): string {
  return `${EVALUATE}/${type === 'BOOLEAN_FLAG_TYPE' ? 'boolean' : 'variant'}`;
}

/**
 * Asks for the full snapshot: without this header Flipt (and Ensign) answer as to an old client,
 * leaving out default variants and sending entity-id constraints as an unknown type.
 */
export const SNAPSHOT_HEADERS = { 'X-Flipt-Accept-Server-Version': '1.47.0' };

export function snapshotPath(namespaceKey: string): string {
  return `${INTERNAL}/evaluation/snapshot/namespace/${encodeURIComponent(namespaceKey)}`;
}

/** A shell word: single-quoted, each embedded quote closed, escaped and reopened. */
const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/** The evaluation request as a curl command line. */
export function curlCommand(url: string, body: EvaluationBody): string {
  return [
    'curl',
    '-X',
    'POST',
    shellQuote(url),
    '-H',
    shellQuote('Content-Type: application/json'),
    '-d',
    shellQuote(JSON.stringify(body)),
  ].join(' ');
}

/** A field where the console's explanation and the server's answer disagree. */
export interface Difference {
  field: string;
  console: string;
  server: string;
}

const sortedKeys = (keys: string[]) => [...keys].sort().join(', ');

/**
 * Compares the console's evaluation with the server's answer. Segment keys compare as sets (Flipt
 * lists them in map order) and only when the server sends them.
 */
export function compareWithServer(result: AnyEvaluation, server: ServerAnswer): Difference[] {
  const evaluation = result.type === 'VARIANT_EVALUATION_RESPONSE_TYPE' ? result.variant : result.boolean;
  const expected: [string, string, unknown][] =
    result.type === 'VARIANT_EVALUATION_RESPONSE_TYPE'
      ? [
          ['match', String(result.variant.match), server.match ?? false],
          ['variant key', result.variant.variantKey, server.variantKey ?? ''],
        ]
      : [['enabled', String(result.boolean.enabled), server.enabled ?? false]];
  expected.push(['reason', evaluation.reason, server.reason]);
  if (server.segmentKeys)
    expected.push(['segment keys', sortedKeys(evaluation.segmentKeys), sortedKeys(server.segmentKeys)]);
  return expected
    .map(([field, ours, answer]) => ({ field, console: ours, server: String(answer) }))
    .filter((difference) => difference.console !== difference.server);
}

/**
 * A random entity id: a UUID where the page is a secure context, else an equivalent from
 * getRandomValues (crypto.randomUUID is missing on plain http served from a non-local host).
 */
export function newEntityId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
