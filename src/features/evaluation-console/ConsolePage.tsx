import '../../app/shared-chunk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useMemo } from 'react';
import * as v from 'valibot';
import {
  compileSnapshot,
  explainEvaluation,
  type EvaluationExplanation,
  type SnapshotDocument,
} from '../../../domain/evaluation/index';
import type { Flag } from '../../../domain/flipt/types';
import { errorMessage, request } from '../../api/client';
import { useNamespaceKey } from '../../lib/namespace';
import { CopyButton } from '../../components/CopyButton';
import { Icon } from '../../components/Icon';
import { Field } from '../../components/Field';
import { useForm } from '../../lib/form';
import { MESSAGES } from '../../lib/validation';
import { useCurrentRef } from '../../api/currentRef';
import { flagKeys, useFlags } from '../flags';
import { Explanation } from './Explanation';
import {
  compareWithServer,
  curlCommand,
  evaluationPath,
  isContextOrEmpty,
  newEntityId,
  parseContext,
  snapshotPath,
  SNAPSHOT_HEADERS,
  type Difference,
  type EvaluationBody,
  type ServerAnswer,
} from './evaluation';

const schema = v.object({
  flagKey: v.string(),
  entityId: v.string(),
  context: v.pipe(v.string(), v.check(isContextOrEmpty, MESSAGES.context)),
});

/** Suggestions under the flag field: the first flags whose key or name holds what is typed. */
const SUGGESTIONS = 20;

function flagMatches(flags: Flag[], typed: string): Flag[] {
  const needle = typed.trim().toLowerCase();
  const found: Flag[] = [];
  for (const flag of flags) {
    if (found.length === SUGGESTIONS) break;
    if (flag.key.toLowerCase().includes(needle) || flag.name.toLowerCase().includes(needle)) found.push(flag);
  }
  return found;
}

const TYPE_LABELS: Record<string, string> = { VARIANT_FLAG_TYPE: 'Variant', BOOLEAN_FLAG_TYPE: 'Boolean' };

interface Outcome {
  body: EvaluationBody;
  answer: ServerAnswer;
  explanation?: { explanation: EvaluationExplanation; differences: Difference[] };
  explanationError?: string;
}

/**
 * Evaluates with the server and, from the namespace's snapshot, with the console's own engine, to
 * explain the answer. A failing evaluation fails; a failing explanation only reports why.
 */
async function evaluate(flag: Flag, body: EvaluationBody): Promise<Outcome> {
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

export default function ConsolePage() {
  const namespaceKey = useNamespaceKey();
  const flags = useFlags(namespaceKey);
  const form = useForm({ flagKey: '', entityId: '', context: '' }, schema);
  const client = useQueryClient();
  const ref = useCurrentRef();
  const evaluation = useMutation({
    mutationFn: ({ flag, body }: { flag: Flag; body: EvaluationBody }) => evaluate(flag, body),
    // The server counted this evaluation: drop the flag's cached series, which would not refetch on mount.
    onSuccess: (_outcome, { body }) =>
      client.removeQueries({ queryKey: flagKeys.analytics(ref, body.namespaceKey, body.flagKey) }),
  });
  const suggestions = useId();

  const flag = flags.items?.find((candidate) => candidate.key === form.values.flagKey);
  const matches = useMemo(
    () => flagMatches(flags.items ?? [], form.values.flagKey),
    [flags.items, form.values.flagKey],
  );
  const body: EvaluationBody | undefined =
    flag && form.valid
      ? { namespaceKey, flagKey: flag.key, entityId: form.values.entityId, context: parseContext(form.values.context) }
      : undefined;
  const curl = flag && body && curlCommand(`${window.location.origin}${evaluationPath(flag.type)}`, body);
  const outcome = evaluation.data;

  return (
    <section>
      <header className="page-header">
        <div>
          <h1>Console</h1>
          <p className="muted">Evaluate a flag for an entity and a context, and see why it answers as it does.</p>
        </div>
      </header>
      <form
        className="form"
        onSubmit={(event) => {
          event.preventDefault();
          if (flag && body) evaluation.mutate({ flag, body });
        }}
      >
        <Field
          label="Flag"
          error={form.values.flagKey && flags.complete && !flag ? 'No flag with this key' : undefined}
          hint={
            flag
              ? `${TYPE_LABELS[flag.type] ?? 'Unknown'} flag: ${flag.name}`
              : flags.isError
                ? flags.error?.message
                : 'Search by key'
          }
        >
          {(props) => (
            <>
              <input
                {...props}
                list={suggestions}
                autoComplete="off"
                value={form.values.flagKey}
                onChange={(event) => form.set('flagKey', event.target.value)}
              />
              <datalist id={suggestions}>
                {matches.map((candidate) => (
                  <option key={candidate.key} value={candidate.key}>
                    {candidate.name}
                  </option>
                ))}
              </datalist>
            </>
          )}
        </Field>
        <Field label="Entity ID">
          {(props) => (
            <div className="input-with-button">
              <input
                {...props}
                value={form.values.entityId}
                onChange={(event) => form.set('entityId', event.target.value)}
              />
              <button type="button" className="button" onClick={() => form.set('entityId', newEntityId())}>
                Generate
              </button>
            </div>
          )}
        </Field>
        <Field
          label="Context"
          error={form.error('context')}
          hint='A JSON object of strings, for example {"plan": "pro"}'
        >
          {(props) => (
            <textarea
              {...props}
              rows={5}
              className="code"
              value={form.values.context}
              onChange={(event) => form.set('context', event.target.value)}
            />
          )}
        </Field>
        <div className="form-actions">
          {curl && <CopyButton text={curl} label="Copy as curl" />}
          <button type="submit" className="button button-primary" disabled={!body || evaluation.isPending}>
            {evaluation.isPending ? <span className="spinner" aria-hidden="true" /> : <Icon name="play" size={16} />}
            Evaluate
          </button>
        </div>
      </form>
      {evaluation.isError && <p role="alert">{evaluation.error.message}</p>}
      {outcome && (
        <>
          <section aria-labelledby="response-heading">
            <h2 id="response-heading">Response</h2>
            {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard */}
            <pre className="code-block" tabIndex={0}>
              {JSON.stringify(outcome.answer, null, 2)}
            </pre>
          </section>
          {outcome.explanation && <Explanation {...outcome.explanation} context={outcome.body.context} />}
          {outcome.explanationError && (
            <p role="alert">The answer could not be explained: {outcome.explanationError}</p>
          )}
        </>
      )}
    </section>
  );
}
