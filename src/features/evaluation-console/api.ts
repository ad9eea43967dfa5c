/**
 * The evaluation console's API, in the shape of flags/api.ts: the request that evaluates a flag (with
 * the server, and with the console's own engine to explain the answer) and its mutation hook.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  compileSnapshot,
  explainEvaluation,
  type EvaluationExplanation,
  type SnapshotDocument,
} from '../../../domain/evaluation/index';
import type { Flag } from '../../../domain/flipt/types';
import { errorMessage, request } from '../../api/client';
import { useCurrentRef } from '../../api/currentRef';
import { flagKeys } from '../flags';
import {
  compareWithServer,
  evaluationPath,
  snapshotPath,
  SNAPSHOT_HEADERS,
  type Difference,
  type EvaluationBody,
  type ServerAnswer,
} from './evaluation';

export interface Outcome {
  body: EvaluationBody;
  answer: ServerAnswer;
  explanation?: { explanation: EvaluationExplanation; differences: Difference[] };
  explanationError?: string;
}

/**
 * Evaluates with the server and, from the namespace's snapshot, with the console's own engine, to
 * explain the answer. A failing evaluation fails; a failing explanation only reports why.
 */
export async function evaluate(flag: Flag, body: EvaluationBody): Promise<Outcome> {
  const [answer, snapshot] = await Promise.all([
    request<ServerAnswer>('POST', evaluationPath(flag.type), body),
    request<SnapshotDocument>('GET', snapshotPath(body.namespaceKey), undefined, { headers: SNAPSHOT_HEADERS }).catch(
      (error: unknown) => error as Error,
    ),
  ]);
  try {
    if (snapshot instanceof Error) throw snapshot;
    const explanation = explainEvaluation(compileSnapshot(snapshot), body);
    return { body, answer, explanation: { explanation, differences: compareWithServer(explanation.result, answer) } };
  } catch (error) {
    return { body, answer, explanationError: errorMessage(error) };
  }
}

/** Evaluates a flag (see `evaluate`). */
export function useEvaluate() {
  const client = useQueryClient();
  const ref = useCurrentRef();
  return useMutation({
    mutationFn: ({ flag, body }: { flag: Flag; body: EvaluationBody }) => evaluate(flag, body),
    // The server counted this evaluation: drop the flag's cached series, which would not refetch on mount.
    onSuccess: (_outcome, { body }) =>
      client.removeQueries({ queryKey: flagKeys.analytics(ref, body.namespaceKey, body.flagKey) }),
  });
}
