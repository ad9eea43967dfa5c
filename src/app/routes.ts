import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { FLAG_ROUTES } from '../features/flags/routes';

type PageModule = { default: ComponentType<{ params: Record<string, string | undefined> }> };

export interface AppRoute {
  path: string;
  /** Imports the page's chunk; the shell calls it before the session is known (see Layout). */
  load(): Promise<PageModule>;
  component: LazyExoticComponent<PageModule['default']>;
  namespaced?: boolean;
}

const page = (path: string, load: () => Promise<PageModule>, namespaced = true): AppRoute => ({
  path,
  load,
  component: lazy(load),
  namespaced,
});

/**
 * The route table. A feature registers its page here as a lazy component; pages are namespaced (reachable
 * under /namespaces/{namespaceKey} and without the prefix, the current namespace) unless marked `false`.
 * Pages receive the route's params. Every lazily loaded module starts with `import '<...>/app/shared-chunk'`.
 */
export const routes: AppRoute[] = [
  page('/', () => import('../features/onboarding/NamespaceIndex')),
  page(FLAG_ROUTES.list, () => import('../features/flags/FlagsPage')),
  page(FLAG_ROUTES.new, () => import('../features/flags/NewFlagPage')),
  page(FLAG_ROUTES.flag, () => import('../features/flags/FlagPage')),
  page('/segments', () => import('../features/segments/SegmentsPage')),
  page('/segments/new', () => import('../features/segments/NewSegmentPage')),
  page('/segments/:segmentKey', () => import('../features/segments/SegmentPage')),
  page('/history', () => import('../features/history/HistoryPage')),
  page('/console', () => import('../features/evaluation-console/ConsolePage')),
  page('/surveys/*?', () => import('../features/surveys/SurveyRoutes')),
  page('/settings/:tab?', () => import('../features/settings/SettingsPage'), false),
  page('/onboarding', () => import('../features/onboarding/OnboardingPage'), false),
  page('/support', () => import('../features/support/SupportPage'), false),
];

/** The paths a route answers on: a namespaced page with and without the namespace prefix. */
export function pathsOf(route: AppRoute): string[] {
  if (!route.namespaced) return [route.path];
  return [`/namespaces/:namespaceKey${route.path === '/' ? '' : route.path}`, route.path];
}

/** The route shown at a location: the first whose path matches, in the table's order (as the shell's Switch). */
export function routeAt(matches: (path: string) => boolean): AppRoute | undefined {
  return routes.find((route) => pathsOf(route).some(matches));
}
