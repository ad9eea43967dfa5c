import '../../app/shared-chunk';
import { useId, useMemo } from 'react';
import * as v from 'valibot';
import type { Flag } from '../../../domain/flipt/types';
import { useNamespaceKey } from '../../lib/namespace';
import { CopyButton } from '../../components/CopyButton';
import { Icon } from '../../components/Icon';
import { Field } from '../../components/Field';
import { useForm } from '../../lib/form';
import { MESSAGES } from '../../lib/validation';
import { useFlags } from '../flags';
import { useEvaluate } from './api';
import { Explanation } from './Explanation';
import {
  curlCommand,
  evaluationPath,
  isContextOrEmpty,
  newEntityId,
  parseContext,
  type EvaluationBody,
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

export default function ConsolePage() {
  const namespaceKey = useNamespaceKey();
  const flags = useFlags(namespaceKey);
  const form = useForm({ flagKey: '', entityId: '', context: '' }, schema);
  const evaluation = useEvaluate();
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
              <input {...props} list={suggestions} autoComplete="off" {...form.field('flagKey')} />
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
              <input {...props} {...form.field('entityId')} />
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
          {(props) => <textarea {...props} rows={5} className="code" {...form.field('context')} />}
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
