import type { BooleanEvaluation, CompiledNamespace, VariantEvaluation } from '../../domain/evaluation/index.js';
import type { EvaluationOutcome, Metrics } from '../metrics.js';
import type { AnalyticsRecorder } from './analytics.js';
import type { Tracing } from '../tracing.js';

/**
 * Records one evaluation, whichever API asked for it: the analytics count, Flipt's evaluation
 * metrics and its span. `result` undefined: the evaluation failed (unknown flag, wrong type). `startedMs` is a
 * `performance.now()` reading from just before it ran.
 */
export type RecordEvaluation = (
  namespace: CompiledNamespace,
  flagKey: string,
  result: VariantEvaluation | BooleanEvaluation | undefined,
  startedMs: number,
) => void;

export function evaluationRecorder(
  analytics: AnalyticsRecorder | undefined,
  metrics: Metrics | undefined,
  tracing: Tracing | undefined,
): RecordEvaluation {
  return (namespace, flagKey, result, startedMs) => {
    const namespaceKey = namespace.key;
    if (!result) {
      metrics?.evaluationFailed(...failureLabels(namespace, flagKey));
      tracing?.evaluation(namespaceKey, flagKey, undefined, startedMs);
      return;
    }
    analytics?.record(namespaceKey, flagKey);
    const outcome = outcomeOf(result);
    metrics?.evaluated(namespaceKey, flagKey, outcome, performance.now() - startedMs);
    tracing?.evaluation(namespaceKey, flagKey, outcome, startedMs);
  };
}

/** The label value that stands for any flag or namespace key the data does not hold. */
const UNKNOWN_KEY = '(unknown)';

/**
 * The namespace and flag labels a failed evaluation is counted under. Requests can name any key, so
 * a flag the namespace does not hold counts under UNKNOWN_KEY, and so does a namespace that holds
 * no flag (or does not exist): random keys add no series (docs/operations.md, "Metrics").
 */
function failureLabels(namespace: CompiledNamespace, flagKey: string): [namespace: string, flag: string] {
  if (namespace.flags.has(flagKey)) return [namespace.key, flagKey];
  return [namespace.flags.size > 0 ? namespace.key : UNKNOWN_KEY, UNKNOWN_KEY];
}

function outcomeOf(result: VariantEvaluation | BooleanEvaluation): EvaluationOutcome {
  return 'variantKey' in result
    ? {
        match: result.match,
        reason: result.reason,
        value: result.variantKey,
        type: 'variant',
        segmentKeys: result.segmentKeys,
      }
    : {
        match: result.reason === 'MATCH_EVALUATION_REASON',
        reason: result.reason,
        value: String(result.enabled),
        type: 'boolean',
        segmentKeys: result.segmentKeys,
      };
}
