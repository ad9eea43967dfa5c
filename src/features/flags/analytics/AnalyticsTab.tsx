import '../../../app/shared-chunk';
import { useMemo, useState } from 'react';
import { Field } from '../../../components/Field';
import { useFlagSeries } from './api';
import type { FlagTabProps } from '../tab-props';
import { LineChart } from '../../../components/LineChart';
import { usePreferencesStore } from '../../../stores/preferences';
import { ANALYTICS_RANGES, toChartData } from './chart';

/** Evaluation counts of the flag over a chosen range (shown only when the server has analytics). */
export default function AnalyticsTab({ namespaceKey, flag }: FlagTabProps) {
  const [minutes, setMinutes] = useState<number>(ANALYTICS_RANGES[1].minutes);
  const series = useFlagSeries(namespaceKey, flag.key, minutes);
  const timezone = usePreferencesStore((state) => state.timezone);
  const data = useMemo(() => series.data && toChartData(series.data), [series.data]);
  const range = ANALYTICS_RANGES.find((candidate) => candidate.minutes === minutes)!;
  const total = data?.[1].reduce((sum, value) => sum + value, 0) ?? 0;

  return (
    <section aria-label="Analytics">
      <div className="section-header">
        <h2>Evaluations</h2>
        <div className="toolbar">
          <Field label="Range">
            {(props) => (
              <select {...props} value={minutes} onChange={(event) => setMinutes(Number(event.target.value))}>
                {ANALYTICS_RANGES.map((candidate) => (
                  <option key={candidate.minutes} value={candidate.minutes}>
                    {candidate.label}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <button type="button" className="button" onClick={() => void series.refetch()} disabled={series.isFetching}>
            Refresh
          </button>
        </div>
      </div>
      {series.isPending && <p className="muted">Loading…</p>}
      {series.isError && <p role="alert">{series.error.message}</p>}
      {data && (
        <figure className="chart-figure">
          <figcaption>
            <span>
              Total evaluations: <strong>{total}</strong>
            </span>{' '}
            <span className="muted">({range.label.toLowerCase()})</span>
          </figcaption>
          <div role="img" aria-label={`Chart of the evaluations of ${flag.key}, ${range.label.toLowerCase()}`}>
            <LineChart xs={data[0]} values={data[1]} label="Evaluations" height={280} utc={timezone === 'utc'} whole />
          </div>
        </figure>
      )}
    </section>
  );
}
