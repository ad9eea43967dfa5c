import type { FlagType, SegmentOperator } from '../flipt/types.js';
import type { CompiledFlag, CompiledNamespace, CompiledRule, CompiledSegment } from './compile.js';
import { CRC32_START, crc32Final, crc32Update } from './crc32.js';
import type { SnapshotComparisonType, SnapshotMatchType } from './snapshot.js';

/**
 * Flag evaluation with Flipt v1.47's server semantics (docs/compatibility.md), over a compiled snapshot.
 * `explainEvaluation` runs the same code with a trace that records every rule, rollout, segment
 * and constraint it looked at.
 */

export interface EvaluationRequest {
  flagKey: string;
  entityId: string;
  context: Record<string, string>;
}

export type EvaluationReason =
  | 'UNKNOWN_EVALUATION_REASON'
  | 'FLAG_DISABLED_EVALUATION_REASON'
  | 'MATCH_EVALUATION_REASON'
  | 'DEFAULT_EVALUATION_REASON';

export interface VariantEvaluation {
  flagKey: string;
  match: boolean;
  reason: EvaluationReason;
  variantKey: string;
  variantAttachment: string;
  /** Keys of the matched rule's segments that matched, in the rule's order. */
  segmentKeys: string[];
}

export interface BooleanEvaluation {
  flagKey: string;
  enabled: boolean;
  reason: EvaluationReason;
  segmentKeys: string[];
}

export type AnyEvaluation =
  | { type: 'VARIANT_EVALUATION_RESPONSE_TYPE'; variant: VariantEvaluation }
  | { type: 'BOOLEAN_EVALUATION_RESPONSE_TYPE'; boolean: BooleanEvaluation };

export type EvaluationErrorKind = 'flag_not_found' | 'flag_type' | 'constraint_type';

/** An evaluation Flipt refuses: its message is Flipt's; `kind` tells which (404 or 400). */
export class EvaluationError extends Error {
  override name = 'EvaluationError';
  constructor(
    readonly kind: EvaluationErrorKind,
    message: string,
  ) {
    super(message);
  }
}

const VARIANT_BUCKETS = 1000;
const THRESHOLD_BUCKETS = 100;

export function findFlag(namespace: CompiledNamespace, flagKey: string): CompiledFlag {
  const flag = namespace.flags.get(flagKey);
  if (!flag) throw new EvaluationError('flag_not_found', `flag "${namespace.key}/${flagKey}" not found`);
  return flag;
}

export function evaluateVariant(namespace: CompiledNamespace, request: EvaluationRequest): VariantEvaluation {
  const flag = findFlag(namespace, request.flagKey);
  if (flag.type !== 'VARIANT_FLAG_TYPE') throw wrongType(flag);
  return variantOf(flag, request);
}

export function evaluateBoolean(namespace: CompiledNamespace, request: EvaluationRequest): BooleanEvaluation {
  const flag = findFlag(namespace, request.flagKey);
  if (flag.type !== 'BOOLEAN_FLAG_TYPE') throw wrongType(flag);
  return booleanOf(flag, request);
}

/** Evaluates a flag of either type, as each item of a batch is. */
export function evaluateFlag(namespace: CompiledNamespace, request: EvaluationRequest): AnyEvaluation {
  const flag = findFlag(namespace, request.flagKey);
  return flag.type === 'BOOLEAN_FLAG_TYPE'
    ? { type: 'BOOLEAN_EVALUATION_RESPONSE_TYPE', boolean: booleanOf(flag, request) }
    : { type: 'VARIANT_EVALUATION_RESPONSE_TYPE', variant: variantOf(flag, request) };
}

function wrongType(flag: CompiledFlag): EvaluationError {
  return new EvaluationError('flag_type', `flag type ${flag.type} invalid`);
}

/** The variant bucket (0-999): CRC-32 of the flag key followed by the entity id. */
export function variantBucket(flag: CompiledFlag, entityId: string): number {
  return crc32Final(crc32Update(flag.variantSeed, entityId)) % VARIANT_BUCKETS;
}

/** The threshold bucket (0-99): CRC-32 of the entity id followed by the flag key. */
export function thresholdBucket(flagKey: string, entityId: string): number {
  return crc32Final(crc32Update(crc32Update(CRC32_START, entityId), flagKey)) % THRESHOLD_BUCKETS;
}

function variantOf(flag: CompiledFlag, request: EvaluationRequest, trace?: StepTrace[]): VariantEvaluation {
  const fallback = flag.defaultVariant;
  const result: VariantEvaluation = {
    flagKey: flag.key,
    match: false,
    reason: fallback ? 'DEFAULT_EVALUATION_REASON' : 'UNKNOWN_EVALUATION_REASON',
    variantKey: fallback?.key ?? '',
    variantAttachment: fallback?.attachment ?? '',
    segmentKeys: [],
  };
  if (!flag.enabled) {
    result.reason = 'FLAG_DISABLED_EVALUATION_REASON';
    return result;
  }
  for (const rule of flag.rules) {
    const segments = trace && [];
    const segmentKeys = matchSegments(rule.segmentOperator, rule.segments, request, segments);
    const step: RuleTrace | undefined = segments && {
      kind: 'rule',
      rank: rule.rank,
      segmentOperator: rule.segmentOperator,
      matched: segmentKeys !== undefined,
      segments,
    };
    if (step) trace!.push(step);
    if (!segmentKeys) continue;
    result.segmentKeys = segmentKeys;
    if (rule.variants.length === 0) {
      result.match = true;
      result.reason = 'MATCH_EVALUATION_REASON';
      return result;
    }
    const bucket = variantBucket(flag, request.entityId);
    const index = chooseDistribution(rule, bucket);
    if (step)
      Object.assign(step, {
        bucket,
        boundaries: rule.boundaries,
        distribution: index < rule.variants.length ? index : -1,
      });
    // A bucket past the last boundary (rollouts summing under 100) ends the evaluation unmatched.
    if (index === rule.variants.length) return result;
    const variant = rule.variants[index];
    result.match = true;
    result.reason = 'MATCH_EVALUATION_REASON';
    result.variantKey = variant.key;
    result.variantAttachment = variant.attachment;
    return result;
  }
  return result;
}

/** The first distribution whose cumulative boundary lies above the bucket (Go's sort.SearchInts). */
function chooseDistribution(rule: CompiledRule, bucket: number): number {
  const { boundaries } = rule;
  let index = 0;
  while (index < boundaries.length && boundaries[index] <= bucket) index++;
  return index;
}

function booleanOf(flag: CompiledFlag, request: EvaluationRequest, trace?: StepTrace[]): BooleanEvaluation {
  for (const rollout of flag.rollouts) {
    if (rollout.kind === 'threshold') {
      const bucket = thresholdBucket(flag.key, request.entityId);
      const matched = bucket < rollout.percentage;
      trace?.push({
        kind: 'threshold',
        rank: rollout.rank,
        percentage: rollout.percentage,
        value: rollout.value,
        bucket,
        matched,
      });
      if (matched)
        return { flagKey: flag.key, enabled: rollout.value, reason: 'MATCH_EVALUATION_REASON', segmentKeys: [] };
      continue;
    }
    const segments = trace && [];
    const segmentKeys = matchSegments(rollout.segmentOperator, rollout.segments, request, segments);
    if (segments)
      trace!.push({
        kind: 'segment',
        rank: rollout.rank,
        segmentOperator: rollout.segmentOperator,
        value: rollout.value,
        matched: segmentKeys !== undefined,
        segments,
      });
    if (segmentKeys)
      return { flagKey: flag.key, enabled: rollout.value, reason: 'MATCH_EVALUATION_REASON', segmentKeys };
  }
  return { flagKey: flag.key, enabled: flag.enabled, reason: 'DEFAULT_EVALUATION_REASON', segmentKeys: [] };
}

/**
 * The keys of the matched segments when the rule or rollout matches (OR: one, AND: all), else
 * undefined. Every segment is evaluated, as Flipt does: a later invalid segment is an error even
 * when an earlier one failed. `traces`, when given, receives each segment's trace.
 */
function matchSegments(
  operator: SegmentOperator,
  segments: CompiledSegment[],
  request: EvaluationRequest,
  traces?: SegmentTrace[],
): string[] | undefined {
  let segmentKeys: string[] | undefined;
  for (const segment of segments) {
    const traced = traces ? traceSegment(segment, request) : undefined;
    if (traced) traces!.push(traced);
    if (traced ? traced.matched : matchSegment(segment, request)) (segmentKeys ??= []).push(segment.key);
  }
  const count = segmentKeys?.length ?? 0;
  const matched = operator === 'AND_SEGMENT_OPERATOR' ? count === segments.length : count > 0;
  return matched ? (segmentKeys ?? []) : undefined;
}

function contextValue(request: EvaluationRequest, property: string): string {
  return Object.hasOwn(request.context, property) ? request.context[property] : '';
}

/** Whether one segment matches the request, with its constraints and match type, as a rule would test it. */
export function matchSegment(segment: CompiledSegment, request: EvaluationRequest): boolean {
  if (!segment.valid) throw new EvaluationError('constraint_type', 'unknown constraint type');
  const { constraints } = segment;
  if (constraints.length === 0) return true;
  const all = segment.matchAll;
  for (const constraint of constraints) {
    const value = constraint.entityId ? request.entityId : contextValue(request, constraint.property);
    if (constraint.test(value) !== all) return !all;
  }
  return all;
}

function traceSegment(segment: CompiledSegment, request: EvaluationRequest): SegmentTrace {
  const matched = matchSegment(segment, request);
  const constraints = segment.constraints.map((constraint) => {
    const value = constraint.entityId ? request.entityId : contextValue(request, constraint.property);
    return {
      id: constraint.id,
      type: constraint.type,
      property: constraint.property,
      operator: constraint.operator,
      value: constraint.value,
      contextValue: value,
      matched: constraint.test(value),
    };
  });
  return { key: segment.key, matchType: segment.matchType, matched, constraints };
}

export interface ConstraintTrace {
  id: string;
  type: SnapshotComparisonType;
  property: string;
  operator: string;
  /** The constraint's value. */
  value: string;
  /** What was compared: the context property's value ("" when absent), or the entity id. */
  contextValue: string;
  matched: boolean;
}

export interface SegmentTrace {
  key: string;
  matchType: SnapshotMatchType;
  matched: boolean;
  constraints: ConstraintTrace[];
}

export interface RuleTrace {
  kind: 'rule';
  rank: number;
  segmentOperator: SegmentOperator;
  matched: boolean;
  segments: SegmentTrace[];
  /** Set when the rule matched and has distributions: the entity's bucket (0-999). */
  bucket?: number;
  boundaries?: number[];
  /** Index into the rule's distributions with a positive rollout, or -1 when the bucket fell past them. */
  distribution?: number;
}

export type StepTrace =
  | RuleTrace
  | { kind: 'threshold'; rank: number; percentage: number; value: boolean; bucket: number; matched: boolean }
  | {
      kind: 'segment';
      rank: number;
      segmentOperator: SegmentOperator;
      value: boolean;
      matched: boolean;
      segments: SegmentTrace[];
    };

export interface EvaluationExplanation {
  flagKey: string;
  flagType: FlagType;
  flagEnabled: boolean;
  /** Exactly what the evaluation endpoint of the flag's type answers. */
  result: AnyEvaluation;
  /** The rules (variant flags) or rollouts (boolean flags) looked at, in rank order, up to the deciding one. */
  steps: StepTrace[];
}

/** Evaluates a flag of either type and records why it came out as it did (for the console). */
export function explainEvaluation(namespace: CompiledNamespace, request: EvaluationRequest): EvaluationExplanation {
  const flag = findFlag(namespace, request.flagKey);
  const steps: StepTrace[] = [];
  const result: AnyEvaluation =
    flag.type === 'BOOLEAN_FLAG_TYPE'
      ? { type: 'BOOLEAN_EVALUATION_RESPONSE_TYPE', boolean: booleanOf(flag, request, steps) }
      : { type: 'VARIANT_EVALUATION_RESPONSE_TYPE', variant: variantOf(flag, request, steps) };
  return { flagKey: flag.key, flagType: flag.type, flagEnabled: flag.enabled, result, steps };
}
