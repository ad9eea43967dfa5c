import '../../app/shared-chunk';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { compareEstimates, type Estimate, MIN_ANSWERS } from '../../../domain/surveys/by-variant';
import type { Flag } from '../../../domain/flipt/types';
import { namespacePath } from '../../lib/paths';
import { GuardsPanel } from '../guards';
import { byVariantQuery, linkedSurveysQuery, type SurveySummary, surveyPaths } from './api';
import { linkValues } from './FlagTargeting';
import { STATUS_LABELS } from './status';
import { ENVIRONMENT_LABELS } from './SurveysArea';

const interval = (estimate: Estimate) =>
  estimate.low === null
    ? `${estimate.value} (too small to tell)`
    : `${estimate.value} (${estimate.low} to ${estimate.high})`;

/** The flag page's Feedback tab: the surveys linked to the flag, their answers read side by side per variant. */
export default function FeedbackTab({ namespaceKey, flag }: { namespaceKey: string; flag: Flag }) {
  const linked = useQuery(linkedSurveysQuery(namespaceKey, flag.key));
  const prefill = new URLSearchParams({ linkFlag: flag.key, values: linkValues(flag).join(',') });
  const newSurvey = namespacePath(namespaceKey, `${surveyPaths.list()}?${prefill}`);
  return (
    <section className="feedback">
      <div className="toolbar">
        <p className="muted">
          Surveys linked to this flag ask only the identified visitors it gives the chosen variants; their answers
          appear here per variant, each score with its 95% interval.
        </p>
        <Link href={newSurvey} className="button button-primary">
          New survey for this flag
        </Link>
      </div>
      {linked.isError && <p role="alert">{linked.error.message}</p>}
      {linked.data?.length === 0 && <p className="muted">No survey links this flag yet.</p>}
      {linked.data?.map(({ environment, survey }) => (
        <LinkedSurvey
          key={survey.id}
          namespaceKey={namespaceKey}
          environmentId={environment.id}
          environmentName={ENVIRONMENT_LABELS[environment.type]}
          survey={survey}
        >
          <GuardsPanel namespaceKey={namespaceKey} flag={flag} survey={survey} />
        </LinkedSurvey>
      ))}
    </section>
  );
}

function LinkedSurvey({
  namespaceKey,
  environmentId,
  environmentName,
  survey,
  children,
}: {
  namespaceKey: string;
  environmentId: string;
  survey: SurveySummary;
  environmentName: string;
  /** What follows the results: the survey's guards. */
  children: ReactNode;
}) {
  const results = useQuery(byVariantQuery(namespaceKey, environmentId, survey.id));
  const values = results.data?.values ?? [];
  const questions = values[0]?.scores ?? [];
  const baseline = values[0];
  return (
    <article className="feedback-survey" aria-label={survey.name}>
      <h2>
        <Link href={namespacePath(namespaceKey, surveyPaths.edit(environmentId, survey.id))}>{survey.name}</Link>{' '}
        <span className="badge">{STATUS_LABELS[survey.status]}</span> <span className="muted">{environmentName}</span>
      </h2>
      <p className="muted">Asks visitors who get: {survey.linkedFlag?.variants.join(', ')}</p>
      {results.isError && <p role="alert">{results.error.message}</p>}
      {values.length > 0 && (
        <div className="table-scroll">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Variant</th>
                <th scope="col">Displays</th>
                <th scope="col">Responses</th>
                <th scope="col">Completed</th>
                {questions.map((question) => (
                  <th key={question.questionId} scope="col">
                    {question.type === 'nps' ? 'NPS' : 'Rating'}: {question.headline}
                  </th>
                ))}
                {values.length > 1 && <th scope="col">Against {baseline.value}</th>}
              </tr>
            </thead>
            <tbody>
              {values.map((entry) => (
                <tr key={entry.value}>
                  <th scope="row">{entry.value}</th>
                  <td>{entry.meta.displayCount}</td>
                  <td>{entry.meta.totalResponses}</td>
                  <td>{entry.meta.completedResponses}</td>
                  {entry.scores.map((score) => (
                    <td key={score.questionId}>{interval(score.estimate)}</td>
                  ))}
                  {values.length > 1 && (
                    <td>
                      {entry === baseline
                        ? '-'
                        : entry.scores[0] && baseline.scores[0]
                          ? compareEstimates(entry.scores[0].estimate, baseline.scores[0].estimate)
                          : 'no score'}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p className="muted">Intervals need {MIN_ANSWERS} answers per variant.</p>
      {children}
    </article>
  );
}
