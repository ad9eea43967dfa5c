import '../../app/shared-chunk';
import { type ComponentType, Suspense, lazy } from 'react';
import { matchRoute, useRouter } from 'wouter';
import { NotFound } from '../../components/NotFound';

type Params = Record<string, string | undefined>;
type Page = ComponentType<{ params: Params }>;

/**
 * The survey area's pages, under /surveys. The console's route table holds one entry for the whole
 * area (this module), so each page the area gains costs the first page nothing.
 */
const PAGES: [pattern: string, page: Page][] = [
  ['/:environmentId/edit/:surveyId', lazy(() => import('./editor/EditorPage'))],
  ['/:environmentId/environment', lazy(() => import('./EnvironmentPage'))],
  ['/:environmentId/actions', lazy(() => import('./ActionsPage'))],
  // biome-ignore lint/style/noRestrictedImports: another feature's page, loaded lazily as docs/architecture.md allows
  ['/:environmentId/results/:surveyId/:view?', lazy(() => import('../survey-results/ResultsPage'))],
  // biome-ignore lint/style/noRestrictedImports: another feature's page, loaded lazily as docs/architecture.md allows
  ['/:environmentId/webhooks', lazy(() => import('../survey-results/WebhooksPage'))],
  ['/:environmentId?', lazy(() => import('./SurveysPage'))],
];

export default function SurveyRoutes({ params }: { params: Params }) {
  const { parser } = useRouter();
  const rest = `/${params['*'] ?? ''}`;
  for (const [pattern, Page] of PAGES) {
    const [matches, found] = matchRoute(parser, pattern, rest);
    if (matches)
      return (
        <Suspense fallback={<p className="muted">Loading…</p>}>
          <Page params={{ ...params, ...found }} />
        </Suspense>
      );
  }
  return <NotFound />;
}
