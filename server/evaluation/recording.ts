import type { BooleanEvaluation, VariantEvaluation } from '../../domain/evaluation/index.js';
import type { EvaluationOutcome, Metrics } from '../metrics.js';
import type { AnalyticsRecorder } from './analytics.js';
import type { Tracing } from '../tracing.js';

/**
 * Records one evaluation, whichever API asked for it: the analytics count, Flipt's evaluation
 * metrics and its span. `result` undefined: the evaluation failed (unknown flag, wrong type). `startedMs` is a
 * `performance.now()` reading from just before it ran.
 */
export type RecordEvaluation = (
  namespaceKey: string,
  flagKey: string,
  result: VariantEvaluation | BooleanEvaluation | undefined,
  startedMs: number,
) => void;

export function evaluationRecorder(
  analytics: AnalyticsRecorder | undefined,
  metrics: Metrics | undefined,
  tracing: Tracing | undefined,
): RecordEvaluation {
  return (namespaceKey, flagKey, result, startedMs) => {
    if (!result) {
      metrics?.evaluationFailed(namespaceKey, flagKey);
      tracing?.evaluation(namespaceKey, flagKey, undefined, startedMs);
      return;
    }
    analytics?.record(namespaceKey, flagKey);
    const outcome = outcomeOf(result);
    metrics?.evaluated(namespaceKey, flagKey, outcome, performance.now() - startedMs);
    tracing?.evaluation(namespaceKey, flagKey, outcome, startedMs);
  };
}

function outcomeOf(result: VariantEvaluation | BooleanEvaluation): EvaluationOutcome {
  return 'variantKey' in result
    ? { match: result.match, reason: result.reason, value: result.variantKey, type: 'variant' }
    : {
        match: result.reason === 'MATCH_EVALUATION_REASON',
        reason: result.reason,
        value: String(result.enabled),
        type: 'boolean',
      };
}
