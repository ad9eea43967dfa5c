import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import { evaluateVariant, type VariantEvaluation } from '../../domain/evaluation/index.js';
import { invalidField } from '../flipt/errors.js';
import type { RouteTable } from '../route-definitions.js';
import { elapsedSince, evaluationTimestamp } from './answers.js';
import { either, legacyEvaluationNamespace } from './request-namespace.js';
import {
  batchItems,
  type Evaluator,
  objectBody,
  readRequest,
  required,
  text,
  type WireRequest,
  withFliptErrors,
} from './wire.js';

/** The deprecated v1 evaluation API (variant flags only), on the path's namespace, the body's or "default". */
export function legacyEvaluation({ recorded, compiled, record }: Evaluator) {
  const legacyEvaluate = async (body: unknown, path?: string) => {
    const started = performance.now();
    const input = readLegacyRequest(body);
    const namespaceKey = required(legacyEvaluationNamespace(path, body));
    const namespace = await compiled(namespaceKey);
    const result = recorded(namespace, input.flagKey, () => evaluateVariant(namespace, input));
    return legacyResponse(
      input,
      namespaceKey,
      result,
      input.requestId || randomUUID(),
      elapsedSince(started),
      evaluationTimestamp(),
    );
  };

  const legacyBatch = async (sent: unknown, path?: string) => {
    const started = performance.now();
    const body = objectBody(sent);
    const namespaceKey = required(legacyEvaluationNamespace(path, sent));
    const excludeNotFound = either(body.excludeNotFound, body.exclude_not_found) === true;
    const inputs = batchItems(body.requests).map(readLegacyRequest);
    for (const input of inputs) {
      if (input.namespaceKey && input.namespaceKey !== namespaceKey) {
        throw invalidField('namespace_key', 'must be the same for all requests if specified');
      }
    }
    const namespace = await compiled(namespaceKey);
    const evaluated: [WireRequest, VariantEvaluation][] = [];
    for (const input of inputs) {
      const started = performance.now();
      const result = withFliptErrors(
        () => evaluateVariant(namespace, input),
        excludeNotFound ? { notFound: () => undefined } : {},
      );
      record(namespace, input.flagKey, result, started);
      if (result) evaluated.push([input, result]);
    }
    const duration = elapsedSince(started);
    const timestamp = evaluationTimestamp();
    return {
      requestId: text(either(body.requestId, body.request_id)) || randomUUID(),
      responses: evaluated.map(([input, result]) =>
        legacyResponse(input, namespaceKey, result, '', duration, timestamp),
      ),
      requestDurationMillis: duration,
    };
  };

  return { legacyEvaluate, legacyBatch };
}

/** The legacy operations the routes answer with (the evaluation API's). */
interface LegacyOperations {
  legacyEvaluate(body: unknown, pathNamespace?: string): Promise<unknown>;
  legacyBatch(body: unknown, pathNamespace?: string): Promise<unknown>;
}

/** The legacy routes, guarded as the management API (as Flipt mounts them), with and without a namespace in the path. */
export function legacyRoutes(routes: RouteTable, { legacyEvaluate, legacyBatch }: LegacyOperations) {
  const params = v.object({ namespaceKey: v.optional(v.string()) });
  for (const [path, evaluate] of [
    ['evaluate', legacyEvaluate],
    ['batch-evaluate', legacyBatch],
  ] as const) {
    for (const url of [`/api/v1/${path}`, `/api/v1/namespaces/:namespaceKey/${path}`]) {
      routes.add({
        method: 'POST',
        url,
        protection: 'management',
        params,
        handler: async ({ params, body }) => evaluate(body, params.namespaceKey),
      });
    }
  }
}

/** The legacy API validates what v2 does not. */
function readLegacyRequest(body: unknown): WireRequest {
  const input = readRequest(body);
  if (input.flagKey === '') throw invalidField('flagKey', 'must not be empty');
  if (input.entityId === '') throw invalidField('entityId', 'must not be empty');
  return input;
}

function legacyResponse(
  input: WireRequest,
  namespaceKey: string,
  result: VariantEvaluation,
  requestId: string,
  duration: number,
  timestamp: string,
) {
  return {
    requestId,
    entityId: input.entityId,
    requestContext: input.context,
    match: result.match,
    flagKey: result.flagKey,
    segmentKey: result.segmentKeys[0] ?? '',
    timestamp,
    value: result.variantKey,
    requestDurationMillis: duration,
    attachment: result.variantAttachment,
    reason: result.reason,
    namespaceKey,
    segmentKeys: result.segmentKeys,
  };
}
