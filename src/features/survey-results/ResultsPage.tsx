import '../../app/shared-chunk';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { PageLinks } from '../../components/PageLinks';
import { useNamespaceKey } from '../../lib/namespace';
import { namespacePath } from '../../lib/paths';
import { type SurveyEnvironment, SurveysArea, surveyPaths, surveyQuery } from '../surveys';
import { exportHref } from './api';
import { conditionCount, trendsFilter, useResultsState } from './filter';
import { FilterPanel } from './FilterPanel';
import { type ResultsView, resultsPaths } from './paths';
import { Responses } from './Responses';
import { useResultsStyles } from './styles';
import { Summary } from './Summary';
import { Trends } from './Trends';

const VIEWS: { view: ResultsView; label: string }[] = [
  { view: 'summary', label: 'Summary' },
  { view: 'trends', label: 'Trends' },
  { view: 'responses', label: 'Responses' },
];

/** A survey's results: summary, trends and responses under one filter kept in the address. */
export default function ResultsPage({ params }: { params: Record<string, string | undefined> }) {
  useResultsStyles();
  return (
    <SurveysArea environmentId={params.environmentId} tab="surveys">
      {(environment) => (
        <Results
          environment={environment}
          surveyId={params.surveyId ?? ''}
          view={VIEWS.find((candidate) => candidate.view === params.view)?.view ?? 'summary'}
        />
      )}
    </SurveysArea>
  );
}

function Results({
  environment,
  surveyId,
  view,
}: {
  environment: SurveyEnvironment;
  surveyId: string;
  view: ResultsView;
}) {
  const namespaceKey = useNamespaceKey();
  const survey = useQuery(surveyQuery(namespaceKey, environment.id, surveyId));
  const [state, setState] = useResultsState(surveyId);
  const [filtering, setFiltering] = useState(false);
  const href = (path: string) => namespacePath(namespaceKey, path);
  if (survey.isPending) return <p className="muted">Loading…</p>;
  if (survey.isError) return <p role="alert">{survey.error.message}</p>;
  const conditions = conditionCount(state.filter);
  const props = { namespaceKey, environmentId: environment.id, survey: survey.data };
  return (
    <>
      <div className="results-header">
        <h2>Results: {survey.data.name}</h2>
        <div className="results-actions">
          <Link href={href(surveyPaths.edit(environment.id, surveyId))} className="button">
            Edit survey
          </Link>
          <button
            type="button"
            className="button"
            aria-expanded={filtering}
            onClick={() => setFiltering((open) => !open)}
          >
            {conditions > 0 ? `Filter (${conditions})` : 'Filter'}
          </button>
          {conditions > 0 && (
            <button type="button" className="button" onClick={() => setState({ filter: {}, days: state.days })}>
              Clear filter
            </button>
          )}
          <a className="button" href={exportHref(namespaceKey, environment.id, surveyId, state.filter)} download>
            Download CSV
          </a>
        </div>
      </div>
      {state.invalid && <p role="alert">The address’s filter is not a valid filter; all responses are shown.</p>}
      {filtering && (
        <FilterPanel
          {...props}
          filter={state.filter}
          onApply={(filter) => {
            setState({ filter, days: state.days });
            setFiltering(false);
          }}
          onClose={() => setFiltering(false)}
        />
      )}
      <PageLinks
        label="Results view"
        look="segmented"
        links={VIEWS.map((candidate) => ({
          key: candidate.view,
          href: href(resultsPaths.results(environment.id, surveyId, candidate.view)),
          label: candidate.label,
        }))}
        current={view}
      />
      <div className="results-view">
        {view === 'summary' && <Summary {...props} filter={state.filter} />}
        {view === 'trends' && (
          <Trends
            {...props}
            filter={trendsFilter(state)}
            days={state.days}
            datesInFilter={Boolean(state.filter.createdAt?.min)}
            onDays={(days) => setState({ filter: state.filter, days })}
          />
        )}
        {view === 'responses' && <Responses {...props} filter={state.filter} />}
      </div>
    </>
  );
}
