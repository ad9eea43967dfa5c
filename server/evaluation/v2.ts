import { randomUUID } from 'node:crypto';
import {
  evaluateBoolean,
  evaluateFlag,
  evaluateVariant,
  type AnyEvaluation,
  type BooleanEvaluation,
  type CompiledNamespace,
  type VariantEvaluation,
} from '../../domain/evaluation/index.js';
import { invalidField } from '../flipt/errors.js';
import { booleanAnswerJson, elapsedSince, evaluationTimestamp, variantAnswerJson, type AnswerMeta } from './answers.js';
import { either, evaluationNamespace } from './request-namespace.js';
import {
  batchItems,
  type Evaluator,
  MAX_BATCH_NAMESPACES,
  objectBody,
  readRequest,
  text,
  type WireRequest,
  withFliptErrors,
} from './wire.js';

/** `/evaluate/v1`: one variant or boolean flag, or a batch of either, each answered as JSON text. */
export function v2Evaluation({ recorded, compiled, withSnapshot, record }: Evaluator) {
  /** One flag of a known type: evaluate, count, answer in the endpoint's JSON. */
  const single =
    <R extends VariantEvaluation | BooleanEvaluation>(
      evaluate: (namespace: CompiledNamespace, input: WireRequest) => R,
    ) =>
    <T>(body: unknown, answer: (result: R, meta: AnswerMeta) => T): T | Promise<T> => {
      const started = performance.now();
      const input = readRequest(body);
      return withSnapshot(evaluationNamespace(input.namespaceKey), (snapshot) => {
        const result = recorded(snapshot.compiled, input.flagKey, () => evaluate(snapshot.compiled, input));
        return answer(result, {
          requestId: input.requestId || randomUUID(),
          durationMillis: elapsedSince(started),
          timestamp: evaluationTimestamp(),
        });
      });
    };

  const batch = async (sent: unknown): Promise<string> => {
    const started = performance.now();
    const body = objectBody(sent);
    const inputs = batchItems(body.requests).map(readRequest);
    const namespaceKeys = new Set(inputs.map((input) => evaluationNamespace(input.namespaceKey)));
    if (namespaceKeys.size > MAX_BATCH_NAMESPACES) {
      throw invalidField('requests', `must name at most ${MAX_BATCH_NAMESPACES} namespaces`);
    }
    // One after the other: loads of the embedded database do not run side by side.
    const namespaces = new Map<string, CompiledNamespace>();
    for (const key of namespaceKeys) namespaces.set(key, await compiled(key));
    const results: (AnyEvaluation | undefined)[] = [];
    for (const input of inputs) {
      const namespace = namespaces.get(evaluationNamespace(input.namespaceKey))!;
      const evaluated = performance.now();
      const result = withFliptErrors(() => evaluateFlag(namespace, input), { notFound: () => undefined });
      record(
        namespace,
        input.flagKey,
        result && (result.type === 'VARIANT_EVALUATION_RESPONSE_TYPE' ? result.variant : result.boolean),
        evaluated,
      );
      results.push(result);
    }
    const durationMillis = elapsedSince(started);
    const timestamp = evaluationTimestamp();
    const responses = results.map((result, i) => {
      const { requestId, flagKey, namespaceKey } = inputs[i];
      if (!result) {
        return JSON.stringify({
          type: 'ERROR_EVALUATION_RESPONSE_TYPE',
          errorResponse: { flagKey, namespaceKey, reason: 'NOT_FOUND_ERROR_EVALUATION_REASON' },
        });
      }
      const meta = { requestId, durationMillis, timestamp };
      return result.type === 'VARIANT_EVALUATION_RESPONSE_TYPE'
        ? `{"type":"${result.type}","variantResponse":${variantAnswerJson(result.variant, meta)}}`
        : `{"type":"${result.type}","booleanResponse":${booleanAnswerJson(result.boolean, meta)}}`;
    });
    const requestId = text(either(body.requestId, body.request_id)) || randomUUID();
    return `{"requestId":${JSON.stringify(requestId)},"responses":[${responses.join(',')}],"requestDurationMillis":${durationMillis}}`;
  };

  return { variant: single(evaluateVariant), boolean: single(evaluateBoolean), batch };
}
