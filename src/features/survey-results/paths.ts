/** Console paths of the results and webhook pages (app/routes.ts registers the same shapes). */
const enc = encodeURIComponent;

export type ResultsView = 'summary' | 'trends' | 'responses';

export const resultsPaths = {
  results: (environmentId: string, surveyId: string, view: ResultsView = 'summary') =>
    `/surveys/${enc(environmentId)}/results/${enc(surveyId)}${view === 'summary' ? '' : `/${view}`}`,
  webhooks: (environmentId: string) => `/surveys/${enc(environmentId)}/webhooks`,
};
