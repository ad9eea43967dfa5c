import type { BooleanEvaluation, VariantEvaluation } from '../../domain/evaluation/index.js';

// The JSON of the variant and boolean answers, written out field by field in
// Flipt's order: they are built on every evaluation, where `JSON.stringify` of a whole object costs
// more than parsing the request. Only the strings go through it.

/** What every answer carries besides the evaluation itself. */
export interface AnswerMeta {
  requestId: string;
  durationMillis: number;
  timestamp: string;
}

export function variantAnswerJson(result: VariantEvaluation, meta: AnswerMeta): string {
  return (
    `{"match":${result.match},"segmentKeys":${JSON.stringify(result.segmentKeys)},"reason":"${result.reason}",` +
    `"variantKey":${JSON.stringify(result.variantKey)},"variantAttachment":${JSON.stringify(result.variantAttachment)},` +
    `${metaJson(meta)},"flagKey":${JSON.stringify(result.flagKey)}}`
  );
}

export function booleanAnswerJson(result: BooleanEvaluation, meta: AnswerMeta): string {
  return (
    `{"enabled":${result.enabled},"reason":"${result.reason}",${metaJson(meta)},` +
    `"flagKey":${JSON.stringify(result.flagKey)},"segmentKeys":${JSON.stringify(result.segmentKeys)}}`
  );
}

function metaJson({ requestId, durationMillis, timestamp }: AnswerMeta): string {
  return `"requestId":${JSON.stringify(requestId)},"requestDurationMillis":${durationMillis},"timestamp":"${timestamp}"`;
}

/** Milliseconds since `started` (a `performance.now()`), to the nanosecond as Flipt reports them. */
export function elapsedSince(started: number): number {
  return Math.round((performance.now() - started) * 1e6) / 1e6;
}

let cachedSecond = -1;
let cachedPrefix = '';

/**
 * The evaluation time as RFC 3339 UTC to the microsecond (what Node's clock has of Flipt's
 * nanoseconds), trailing zero triplets trimmed as Flipt does. The date and time part is formatted
 * once per second.
 */
export function evaluationTimestamp(): string {
  const micros = Math.floor((performance.timeOrigin + performance.now()) * 1000);
  const second = Math.floor(micros / 1_000_000);
  if (second !== cachedSecond) {
    cachedSecond = second;
    cachedPrefix = new Date(second * 1000).toISOString().slice(0, 19);
  }
  const fraction = micros - second * 1_000_000;
  if (fraction === 0) return `${cachedPrefix}Z`;
  if (fraction % 1000 === 0) return `${cachedPrefix}.${String(fraction / 1000).padStart(3, '0')}Z`;
  return `${cachedPrefix}.${String(fraction).padStart(6, '0')}Z`;
}
