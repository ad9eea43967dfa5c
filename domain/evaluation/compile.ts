import type { FlagType, SegmentOperator } from '../flipt/types.js';
import { compileConstraintTest, type ConstraintTest } from './constraints.js';
import { CRC32_START, crc32Update } from './crc32.js';
import type {
  SnapshotConstraint,
  SnapshotDocument,
  SnapshotFlag,
  SnapshotMatchType,
  SnapshotRule,
  SnapshotSegment,
} from './snapshot.js';

/**
 * A namespace's snapshot compiled for evaluation: constraint values parsed, `isoneof` lists as
 * sets, each rule's cumulative bucket boundaries computed, each flag's key pre-hashed (the variant
 * bucket hashes the flag key first). Compiled once per snapshot and shared by every request.
 */
export interface CompiledNamespace {
  key: string;
  flags: ReadonlyMap<string, CompiledFlag>;
}

export interface CompiledFlag {
  key: string;
  type: FlagType;
  enabled: boolean;
  defaultVariant?: CompiledVariant;
  /** CRC-32 state after the flag key's bytes. */
  variantSeed: number;
  rules: CompiledRule[];
  rollouts: CompiledRollout[];
}

export interface CompiledVariant {
  key: string;
  attachment: string;
}

export interface CompiledConstraint extends SnapshotConstraint {
  /** ENTITY_ID constraints test the request's entity id instead of a context property. */
  entityId: boolean;
  test: ConstraintTest;
}

export interface CompiledSegment {
  key: string;
  matchType: SnapshotMatchType;
  matchAll: boolean;
  constraints: CompiledConstraint[];
  /** False when a constraint has an unknown comparison type: evaluating the segment is an error. */
  valid: boolean;
}

export interface CompiledRule {
  rank: number;
  segmentOperator: SegmentOperator;
  segments: CompiledSegment[];
  /** The distributions with a positive rollout, in creation order. */
  variants: (CompiledVariant & { rollout: number })[];
  /** Cumulative upper bounds over 1000 buckets, one per entry of `variants`. */
  boundaries: number[];
}

export type CompiledRollout =
  | { kind: 'threshold'; rank: number; percentage: number; value: boolean }
  | { kind: 'segment'; rank: number; value: boolean; segmentOperator: SegmentOperator; segments: CompiledSegment[] };

export function compileSnapshot(document: SnapshotDocument, segment = segmentCompiler()): CompiledNamespace {
  const flags = new Map<string, CompiledFlag>();
  for (const flag of document.flags) flags.set(flag.key, compileFlag(flag, segment));
  return { key: document.namespace.key, flags };
}

/** Compiles a segment once per key: the rules and rollouts that use it share one compiled segment. */
export type SegmentCompiler = (source: SnapshotSegment) => CompiledSegment;

/** A SegmentCompiler keeping what it compiled in `compiled` (which may hold segments compiled before). */
export function segmentCompiler(compiled = new Map<string, CompiledSegment>()): SegmentCompiler {
  return (source) => {
    let segment = compiled.get(source.key);
    if (!segment) {
      segment = compileSegment(source);
      compiled.set(source.key, segment);
    }
    return segment;
  };
}

export function compileFlag(flag: SnapshotFlag, segment: SegmentCompiler): CompiledFlag {
  const rules: CompiledRule[] = [];
  const copies = new Map<string, number>();
  for (const rule of flag.rules ?? []) if (rule.id) copies.set(rule.id, (copies.get(rule.id) ?? 0) + 1);
  const seenRules = new Set<string>();
  for (const rule of flag.rules ?? []) {
    if (rule.id && seenRules.has(rule.id)) continue;
    seenRules.add(rule.id);
    if (rule.segments.length === 0) continue;
    rules.push(compileRule(rule, segment, copies.get(rule.id) ?? 1));
  }
  const rollouts: CompiledRollout[] = [];
  for (const rollout of flag.rollouts ?? []) {
    if (rollout.threshold) {
      rollouts.push({
        kind: 'threshold',
        rank: rollout.rank,
        percentage: Math.fround(rollout.threshold.percentage),
        value: rollout.threshold.value,
      });
    } else if (rollout.segment && rollout.segment.segments.length > 0) {
      rollouts.push({
        kind: 'segment',
        rank: rollout.rank,
        value: rollout.segment.value,
        segmentOperator: rollout.segment.segmentOperator,
        segments: rollout.segment.segments.map(segment),
      });
    }
  }
  return {
    key: flag.key,
    type: flag.type,
    enabled: flag.enabled,
    defaultVariant: flag.defaultVariant
      ? { key: flag.defaultVariant.key, attachment: flag.defaultVariant.attachment }
      : undefined,
    variantSeed: crc32Update(CRC32_START, flag.key),
    rules,
    rollouts,
  };
}

function compileRule(rule: SnapshotRule, segment: SegmentCompiler, copies: number): CompiledRule {
  const variants: CompiledRule['variants'] = [];
  const boundaries: number[] = [];
  let total = 0;
  for (const distribution of copies > 1 ? distinctDistributions(rule, copies) : rule.distributions) {
    if (!(distribution.rollout > 0)) continue;
    // Flipt multiplies the float32 rollout by 10 in float32 and truncates.
    total += Math.trunc(Math.fround(Math.fround(distribution.rollout) * 10));
    boundaries.push(total);
    variants.push({
      key: distribution.variantKey,
      attachment: distribution.variantAttachment,
      rollout: distribution.rollout,
    });
  }
  return {
    rank: rule.rank,
    segmentOperator: rule.segmentOperator,
    segments: rule.segments.map(segment),
    variants,
    boundaries,
  };
}

/**
 * Flipt's own snapshot endpoint repeats a rule with N segments N times (same id), each copy carrying
 * its distributions N times over. Our server emits each rule once; this undoes the
 * repetition so that snapshots fetched from a real Flipt evaluate as Flipt's server does.
 */
function distinctDistributions(rule: SnapshotRule, copies: number): SnapshotRule['distributions'] {
  const { distributions } = rule;
  if (distributions.length % copies !== 0) return distributions;
  const period = distributions.length / copies;
  for (let i = period; i < distributions.length; i++) {
    const a = distributions[i];
    const b = distributions[i % period];
    if (a.variantKey !== b.variantKey || a.rollout !== b.rollout || a.variantId !== b.variantId) return distributions;
  }
  return distributions.slice(0, period);
}

export function compileSegment(source: SnapshotSegment): CompiledSegment {
  let valid = true;
  const constraints: CompiledConstraint[] = [];
  for (const constraint of source.constraints) {
    const test = compileConstraintTest(constraint);
    if (!test) valid = false;
    constraints.push({
      ...constraint,
      entityId: constraint.type === 'ENTITY_ID_CONSTRAINT_COMPARISON_TYPE',
      test: test ?? (() => false),
    });
  }
  return {
    key: source.key,
    matchType: source.matchType,
    matchAll: source.matchType === 'ALL_SEGMENT_MATCH_TYPE',
    constraints,
    valid,
  };
}
