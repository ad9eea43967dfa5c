import {
  type CompiledNamespace,
  type CompiledSegment,
  type EvaluationReason,
  evaluateFlag,
  matchSegment,
} from '../evaluation/index.js';
import type { TLinkedFlag, TSurvey } from './types.js';

/**
 * Feedback by variant (docs/architecture.md, "Surveys linked to flags"): which surveys a visitor may
 * see given a namespace's flags and segments. It runs the same engine as `/evaluate/v1`, but is not an
 * evaluation: callers neither count it in analytics nor in metrics.
 */

/** What a boolean flag gives, in a survey's link and in recorded displays and responses. */
export const BOOLEAN_LINK_VALUES = ['enabled', 'disabled'] as const;

/** What a linked flag gave a visitor when a survey was shown: kept with the display and the response. */
export interface FlagAssignment {
  flagKey: string;
  /** The variant key, or `enabled` / `disabled` for a boolean flag; empty when no variant matched. */
  variant: string;
  reason: EvaluationReason;
}

/** A namespace's compiled flags, and its segments by key (also those no flag uses). */
export interface TargetingNamespace {
  compiled: CompiledNamespace;
  segment(key: string): CompiledSegment | undefined;
}

export interface TargetedVisitor {
  userId: string;
  attributes: Record<string, string>;
}

/** Surveys linked to a flag or a segment need a stable entity id: anonymous visitors never get them. */
export function needsIdentity(survey: Pick<TSurvey, 'linkedFlag' | 'segmentKey'>): boolean {
  return survey.linkedFlag !== null || survey.segmentKey !== null;
}

/** The flag's answer for the visitor (entity id = user id, context = attributes); undefined when it cannot be had. */
export function flagAssignment(
  namespace: TargetingNamespace,
  flagKey: string,
  visitor: TargetedVisitor,
): FlagAssignment | undefined {
  if (!namespace.compiled.flags.has(flagKey)) return undefined;
  try {
    const result = evaluateFlag(namespace.compiled, { flagKey, entityId: visitor.userId, context: visitor.attributes });
    return result.type === 'BOOLEAN_EVALUATION_RESPONSE_TYPE'
      ? { flagKey, variant: result.boolean.enabled ? 'enabled' : 'disabled', reason: result.boolean.reason }
      : { flagKey, variant: result.variant.variantKey, reason: result.variant.reason };
  } catch {
    // A segment with an unknown constraint type fails the evaluation: the survey is not shown.
    return undefined;
  }
}

/** Whether the visitor's attributes match the segment; a missing or invalid segment matches nobody. */
export function inSegment(namespace: TargetingNamespace, segmentKey: string, visitor: TargetedVisitor): boolean {
  const segment = namespace.segment(segmentKey);
  if (!segment) return false;
  try {
    return matchSegment(segment, { flagKey: '', entityId: visitor.userId, context: visitor.attributes });
  } catch {
    return false;
  }
}

/** Whether the linked flag gives the visitor one of the linked values. */
export function linkMatches(namespace: TargetingNamespace, link: TLinkedFlag, visitor: TargetedVisitor): boolean {
  const assignment = flagAssignment(namespace, link.flagKey, visitor);
  return assignment !== undefined && link.variants.includes(assignment.variant);
}

/** Whether an identified visitor passes the survey's segment and flag link (a survey with neither passes). */
export function passesFlagTargeting(
  survey: Pick<TSurvey, 'linkedFlag' | 'segmentKey'>,
  namespace: TargetingNamespace,
  visitor: TargetedVisitor,
): boolean {
  if (survey.segmentKey !== null && !inSegment(namespace, survey.segmentKey, visitor)) return false;
  return survey.linkedFlag === null || linkMatches(namespace, survey.linkedFlag, visitor);
}
