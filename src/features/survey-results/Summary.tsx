import { useQuery } from '@tanstack/react-query';
import type { Share } from '../../../domain/surveys/summary';
import { type AnswerSample, type ResultsQuestionSummary, summaryQuery } from './api';
import { TableHead } from '../../components/RowActions';
import type { ResultsView } from './filter';
import { answerText, count, duration, percentText } from './format';

const TYPE_LABELS: Record<ResultsQuestionSummary['type'], string> = {
  nps: 'Net Promoter Score',
  rating: 'Rating',
  cta: 'Call to action',
  consent: 'Consent',
  cal: 'Schedule a call',
  multipleChoiceSingle: 'Single select',
  multipleChoiceMulti: 'Multi select',
  pictureSelection: 'Picture selection',
  openText: 'Free text',
  date: 'Date',
  fileUpload: 'File upload',
};

/** The survey's summary under the view's filter: Formbricks 1.6's figures, then each question's. */
export function Summary({ namespaceKey, environmentId, survey, filter }: ResultsView) {
  const summary = useQuery(summaryQuery(namespaceKey, environmentId, survey.id, filter));
  if (summary.isPending) return <p className="muted">Loading…</p>;
  if (summary.isError) return <p role="alert">{summary.error.message}</p>;
  const { meta, dropOff, questions, hiddenFields } = summary.data;
  const headline = (id: string) => survey.questions.find((question) => question.id === id)?.headline ?? id;
  return (
    <section aria-label="Summary">
      <ul className="results-stats" aria-label="Totals">
        <Stat label="Impressions" value={count(meta.displayCount)} />
        <Stat label="Starts" value={count(meta.totalResponses)} detail={percentText(meta.startsPercentage)} />
        <Stat label="Completed" value={count(meta.completedResponses)} detail={percentText(meta.completedPercentage)} />
        <Stat label="Drop-offs" value={count(meta.dropOffCount)} detail={percentText(meta.dropOffPercentage)} />
        <Stat label="Time to complete" value={duration(meta.ttcAverage)} detail="average" />
      </ul>
      <h3>Drop-offs by question</h3>
      <div className="table-scroll">
        <table className="table">
          <TableHead columns={['Question', 'Views', 'Drop-offs', 'Drop-off %', 'Average time']} actionsLabel={false} />
          <tbody>
            {dropOff.map((row) => (
              <tr key={row.questionId}>
                <td>{row.headline}</td>
                <td>{count(row.views)}</td>
                <td>{count(row.dropOffCount)}</td>
                <td>{percentText(row.dropOffPercentage)}</td>
                <td>{duration(row.ttc)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h3>Questions</h3>
      <ul className="results-questions">
        {questions.map((entry) => (
          <li key={entry.questionId} className="results-question">
            <h3>{headline(entry.questionId)}</h3>
            <p className="muted">
              {TYPE_LABELS[entry.type]} · {count(entry.total)} {entry.total === 1 ? 'response' : 'responses'}
            </p>
            <QuestionBody entry={entry} />
          </li>
        ))}
        {hiddenFields.map((field) => (
          <li key={field.fieldId} className="results-question">
            <h3>{field.fieldId}</h3>
            <p className="muted">
              Hidden field · {count(field.total)} {field.total === 1 ? 'response' : 'responses'}
            </p>
            <Samples samples={field.samples} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function Stat({ label, value, detail }: { label: string; value: string; detail?: string }) {
  return (
    <li className="results-stat">
      <span className="muted">{label}</span>
      <strong>{value}</strong>
      {detail && <span className="muted">{detail}</span>}
    </li>
  );
}

function Bars({ rows }: { rows: { label: string; share: Share }[] }) {
  return (
    <ul className="results-bars">
      {rows.map(({ label, share }) => (
        <li key={label}>
          <div className="results-bar-label">
            <span>{label}</span>
            <span>
              {count(share.count)} · {percentText(share.percentage)}
            </span>
          </div>
          <div className="results-bar" aria-hidden="true">
            <span style={{ width: `${Math.min(100, share.percentage)}%` }} />
          </div>
        </li>
      ))}
    </ul>
  );
}

function QuestionBody({ entry }: { entry: ResultsQuestionSummary }) {
  const scored = entry.type === 'nps' || entry.type === 'rating' || entry.type === 'cta';
  if (scored && entry.total === 0) return <p className="muted">No answers yet.</p>;
  switch (entry.type) {
    case 'nps':
      return (
        <>
          <p className="results-score">NPS {entry.score}</p>
          <Bars
            rows={[
              { label: 'Promoters (9-10)', share: entry.promoters },
              { label: 'Passives (7-8)', share: entry.passives },
              { label: 'Detractors (0-6)', share: entry.detractors },
              { label: 'Dismissed', share: entry.dismissed },
            ]}
          />
        </>
      );
    case 'rating':
      return (
        <>
          <p className="results-score">Average {entry.average}</p>
          <Bars
            rows={[
              ...entry.values.map((value) => ({ label: `Rated ${value.rating}`, share: value })),
              { label: 'Dismissed', share: entry.dismissed },
            ]}
          />
        </>
      );
    case 'cta':
      return (
        <>
          <p className="results-score">Click-through {percentText(entry.clicked.percentage)}</p>
          <Bars
            rows={[
              { label: 'Clicked', share: entry.clicked },
              { label: 'Dismissed', share: entry.dismissed },
            ]}
          />
        </>
      );
    case 'consent':
    case 'cal':
      return (
        <Bars
          rows={[
            { label: entry.type === 'consent' ? 'Accepted' : 'Booked', share: entry.accepted },
            { label: 'Dismissed', share: entry.dismissed },
          ]}
        />
      );
    case 'multipleChoiceSingle':
    case 'multipleChoiceMulti':
    case 'pictureSelection':
      return (
        <>
          <Bars rows={entry.choices.map((choice) => ({ label: choice.value, share: choice }))} />
          {entry.samples && entry.samples.length > 0 && (
            <>
              <h4>Other answers</h4>
              <Samples samples={entry.samples} />
            </>
          )}
        </>
      );
    default:
      return <Samples samples={entry.samples ?? []} />;
  }
}

function Samples({ samples }: { samples: AnswerSample[] }) {
  if (samples.length === 0) return <p className="muted">No answers yet.</p>;
  return (
    <ul className="results-samples">
      {samples.map((sample) => (
        <li key={sample.responseId}>
          <span>{answerText(sample.value)}</span>
          <br />
          <span className="muted">{sample.person ? sample.person.userId : 'Anonymous'}</span>
        </li>
      ))}
    </ul>
  );
}
