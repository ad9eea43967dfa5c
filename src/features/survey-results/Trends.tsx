import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Field } from '../../components/Field';
import { LineChart } from '../../components/LineChart';
import { trendsQuery } from './api';
import type { ResultsView } from './filter';
import { count } from './format';
import { TREND_RANGES } from './filter';

const NPS_RANGE: [number, number] = [-100, 100];

/** A chart over UTC days: a point per day while they are few enough to tell apart. */
const dayChart = (xs: number[]) => ({ xs, height: 220, utc: true, points: xs.length <= 62 });

/** Responses per day, and each NPS question's score and each rating question's average per day. */
export function Trends({
  namespaceKey,
  environmentId,
  survey,
  filter,
  days,
  datesInFilter,
  onDays,
}: ResultsView & {
  /** The filter is the view's with the range's dates. */
  days: number;
  /** The view's filter names dates itself: the range does not apply. */
  datesInFilter: boolean;
  onDays(days: number): void;
}) {
  const trends = useQuery(trendsQuery(namespaceKey, environmentId, survey.id, filter));
  const series = useMemo(() => {
    const data = trends.data ?? [];
    return {
      xs: data.map((day) => Date.parse(`${day.day}T00:00:00Z`) / 1000),
      responses: data.map((day) => day.responses),
      byQuestion: survey.questions
        .filter((question) => question.type === 'nps' || question.type === 'rating')
        .map((question) => ({
          question,
          values: data.map((day) => (question.type === 'nps' ? day.nps : day.rating)[question.id] ?? null),
        })),
    };
  }, [trends.data, survey.questions]);
  const total = series.responses.reduce((sum, value) => sum + value, 0);
  const rangeLabel = datesInFilter ? 'the filter’s dates' : `the last ${days} days`;

  return (
    <section aria-label="Trends">
      <div className="toolbar">
        <Field label="Range" hint={datesInFilter ? 'The filter’s dates apply.' : undefined}>
          {(props) => (
            <select
              {...props}
              value={days}
              disabled={datesInFilter}
              onChange={(event) => onDays(Number(event.target.value))}
            >
              {TREND_RANGES.map((value) => (
                <option key={value} value={value}>
                  Last {value} days
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      {trends.isPending && <p className="muted">Loading…</p>}
      {trends.isError && <p role="alert">{trends.error.message}</p>}
      {trends.data && (
        <>
          <figure className="results-chart chart-figure">
            <figcaption>
              <h3>Responses per day</h3>
              <span>
                {count(total)} {total === 1 ? 'response' : 'responses'} in {rangeLabel} (UTC days)
              </span>
            </figcaption>
            <div role="img" aria-label={`Chart of the responses per day in ${rangeLabel}`}>
              <LineChart {...dayChart(series.xs)} values={series.responses} label="Responses" whole />
            </div>
          </figure>
          {series.byQuestion.map(({ question, values }) => (
            <figure key={question.id} className="results-chart chart-figure">
              <figcaption>
                <h3>
                  {question.type === 'nps' ? 'NPS' : 'Average rating'}: {question.headline}
                </h3>
              </figcaption>
              <div
                role="img"
                aria-label={`Chart of the ${question.type === 'nps' ? 'NPS' : 'average rating'} per day of ${question.headline}`}
              >
                <LineChart
                  {...dayChart(series.xs)}
                  values={values}
                  label={question.type === 'nps' ? 'NPS' : 'Average rating'}
                  range={question.type === 'nps' ? NPS_RANGE : undefined}
                />
              </div>
            </figure>
          ))}
        </>
      )}
    </section>
  );
}
