import { useQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import * as v from 'valibot';
import type { Flag } from '../../../domain/flipt/types';
import type { GuardState } from '../../../domain/guards/assess';
import { armOfAssignment, DEFAULT_ERROR_RATE, DEFAULT_MINIMUM_SAMPLE, type Guard } from '../../../domain/guards/guard';
import type { TSurvey } from '../../../domain/surveys/types';
import { useCurrentRef } from '../../api/currentRef';
import { useWritable } from '../../api/writable';
import { Field } from '../../components/Field';
import { SubmitButton } from '../../components/SubmitButton';
import { Timestamp } from '../../components/Timestamp';
import { TableHead } from '../../components/RowActions';
import { useForm } from '../../lib/form';
import { guardsQuery, useCreateGuard, useDeleteGuard } from './api';

const STATE_LABELS: Record<GuardState, string> = {
  COLLECTING: 'Collecting',
  HEALTHY: 'Healthy',
  REGRESSED: 'Regressed',
  SAMPLE_RATIO_MISMATCH: 'Held back: sample-ratio mismatch',
};

const GuardForm = v.object({
  questionId: v.pipe(v.string(), v.minLength(1, 'Choose the question to watch')),
  answer: v.string(),
  baseline: v.pipe(v.string(), v.minLength(1, 'Choose the baseline')),
  minimumRegression: v.pipe(
    v.string(),
    v.check((text) => Number(text) > 0, 'Enter the smallest regression that matters, above 0'),
  ),
  action: v.picklist(['ALERT', 'ROLLBACK']),
  minimumSample: v.pipe(
    v.string(),
    v.check(
      (text) => Number.isInteger(Number(text)) && Number(text) >= 2,
      'Enter a whole number of answers, 2 or more',
    ),
  ),
});
type GuardFormValues = v.InferOutput<typeof GuardForm>;

const guardable = (survey: TSurvey) =>
  survey.questions.filter((question) =>
    ['nps', 'rating', 'multipleChoiceSingle', 'multipleChoiceMulti'].includes(question.type),
  );

const round = (value: number) => Math.round(value * 100) / 100;

/**
 * A linked survey's feedback guards on the flag: each guard's verdict (collecting, healthy, regressed with its
 * always-valid interval and what it did, or held back by a sample-ratio mismatch), and a form to add one.
 */
export default function GuardsPanel({
  namespaceKey,
  flag,
  survey,
}: {
  namespaceKey: string;
  flag: Flag;
  survey: TSurvey;
}) {
  const ref = useCurrentRef();
  const guards = useQuery(guardsQuery(ref, namespaceKey, flag.key));
  const mine = guards.data?.filter((guard) => guard.surveyId === survey.id) ?? [];
  return (
    <section className="guards" aria-label={`Guards of ${survey.name}`}>
      <h3>Guards</h3>
      {guards.isError && <p role="alert">{guards.error.message}</p>}
      {mine.length === 0 && guards.isSuccess && (
        <p className="muted">No guard watches this rollout through these answers yet.</p>
      )}
      {mine.map((guard) => (
        <GuardCard key={guard.id} namespaceKey={namespaceKey} flagKey={flag.key} guard={guard} survey={survey} />
      ))}
      <NewGuard namespaceKey={namespaceKey} flagKey={flag.key} survey={survey} />
    </section>
  );
}

function GuardCard({
  namespaceKey,
  flagKey,
  guard,
  survey,
}: {
  namespaceKey: string;
  flagKey: string;
  guard: Guard;
  survey: TSurvey;
}) {
  const { disabled, reason } = useWritable();
  const remove = useDeleteGuard(namespaceKey, flagKey);
  const question = survey.questions.find((candidate) => candidate.id === guard.questionId);
  const measured =
    guard.answer === undefined ? question?.headline : `share answering "${guard.answer}" to ${question?.headline}`;
  const { difference } = guard;
  return (
    <article className="guard" aria-label={`Guard ${guard.id}`}>
      <p>
        <span className="badge">{STATE_LABELS[guard.state]}</span> Watches {measured ?? guard.questionId} against{' '}
        <strong>{guard.baseline}</strong>; {guard.action === 'ROLLBACK' ? 'rolls back' : 'alerts'} on a regression of{' '}
        {guard.minimumRegression} or more (error rate {guard.errorRate}, {guard.minimumSample} answers per value first).
      </p>
      {guard.reason && <p className="guard-reason">{guard.reason}</p>}
      {difference && (
        <p>
          Difference against {guard.baseline}: {round(difference.estimate)} (always-valid interval{' '}
          {round(difference.lower)} to {round(difference.upper)})
        </p>
      )}
      {guard.actedAt && (
        <p role="status">
          {guard.action === 'ROLLBACK' ? `Rolled back to ${guard.baseline}` : 'Alerted'}{' '}
          <Timestamp value={guard.actedAt} />
        </p>
      )}
      <table className="table">
        <TableHead columns={['Value', 'Displays', 'Answers', 'Mean']} actionsLabel={false} />
        <tbody>
          {guard.arms.map((arm) => (
            <tr key={arm.key}>
              <th scope="row">{arm.key}</th>
              <td>{arm.displays}</td>
              <td>{arm.responses}</td>
              <td>{arm.estimate === null ? '-' : round(arm.estimate)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <button
        type="button"
        className="button"
        disabled={disabled || remove.isPending}
        title={reason}
        onClick={() => remove.mutate(guard.id)}
      >
        Delete guard
      </button>
    </article>
  );
}

function NewGuard({ namespaceKey, flagKey, survey }: { namespaceKey: string; flagKey: string; survey: TSurvey }) {
  const { reason } = useWritable();
  const create = useCreateGuard(namespaceKey, flagKey);
  const questions = guardable(survey);
  const values = (survey.linkedFlag?.variants ?? []).map(armOfAssignment);
  const form = useForm<GuardFormValues>(
    {
      questionId: questions[0]?.id ?? '',
      answer: '',
      baseline: values[0] ?? '',
      minimumRegression: '',
      action: 'ROLLBACK',
      minimumSample: String(DEFAULT_MINIMUM_SAMPLE),
    },
    GuardForm,
  );
  const question = questions.find((candidate) => candidate.id === form.values.questionId);
  const choices =
    question?.type === 'multipleChoiceSingle' || question?.type === 'multipleChoiceMulti'
      ? question.choices.map((choice) => choice.label)
      : undefined;
  if (questions.length === 0 || values.length < 2)
    return <p className="muted">A guard needs an NPS, rating or choice question and two linked values to compare.</p>;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { answer, minimumRegression, minimumSample, ...rest } = form.values;
    create.mutate(
      {
        ...rest,
        surveyId: survey.id,
        environmentId: survey.environmentId,
        minimumRegression: Number(minimumRegression),
        errorRate: DEFAULT_ERROR_RATE,
        minimumSample: Number(minimumSample),
        ...(choices && { answer: answer || choices[0] }),
      },
      { onSuccess: () => form.reset({ ...form.values, minimumRegression: '' }) },
    );
  };
  return (
    <form className="guard-form" aria-label="New guard" onSubmit={submit}>
      <Field label="Question">
        {(props) => (
          <select {...props} {...form.choice('questionId')}>
            {questions.map((candidate) => (
              <option key={candidate.id} value={candidate.id}>
                {candidate.headline}
              </option>
            ))}
          </select>
        )}
      </Field>
      {choices && (
        <Field label="Share of the answer">
          {(props) => (
            <select {...props} {...form.choice('answer')}>
              <option value="">{choices[0]}</option>
              {choices.slice(1).map((choice) => (
                <option key={choice}>{choice}</option>
              ))}
            </select>
          )}
        </Field>
      )}
      <Field label="Baseline">
        {(props) => (
          <select {...props} {...form.choice('baseline')}>
            {values.map((value) => (
              <option key={value}>{value}</option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Smallest regression that matters" error={form.error('minimumRegression')}>
        {(props) => <input {...props} inputMode="decimal" {...form.field('minimumRegression')} />}
      </Field>
      <Field label="Answers per value before it may act" error={form.error('minimumSample')}>
        {(props) => <input {...props} inputMode="numeric" {...form.field('minimumSample')} />}
      </Field>
      <Field label="When it trips">
        {(props) => (
          <select {...props} {...form.choice('action')}>
            <option value="ROLLBACK">Alert and roll back to the baseline</option>
            <option value="ALERT">Alert only</option>
          </select>
        )}
      </Field>
      {create.isError && <p role="alert">{create.error.message}</p>}
      <SubmitButton label="Add guard" submitting={create.isPending} ready={form.valid} reason={reason} />
    </form>
  );
}
