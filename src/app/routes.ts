import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * The route table. A feature registers its page here as a lazy component; `namespaced` pages are
 * reachable under /namespaces/{namespaceKey} and without the prefix (current namespace).
 * Pages receive the route's params. Every lazily loaded module starts with `import '<...>/app/shared-chunk'`.
 */
export interface AppRoute {
  path: string;
  component: LazyExoticComponent<ComponentType<{ params: Record<string, string | undefined> }>>;
  namespaced?: boolean;
}

export const routes: AppRoute[] = [
  { path: '/', namespaced: true, component: lazy(() => import('../features/onboarding/NamespaceIndex')) },
  { path: '/flags', namespaced: true, component: lazy(() => import('../features/flags/FlagsPage')) },
  { path: '/flags/new', namespaced: true, component: lazy(() => import('../features/flags/NewFlagPage')) },
  { path: '/flags/:flagKey/:tab?', namespaced: true, component: lazy(() => import('../features/flags/FlagPage')) },
  { path: '/segments', namespaced: true, component: lazy(() => import('../features/segments/SegmentsPage')) },
  { path: '/segments/new', namespaced: true, component: lazy(() => import('../features/segments/NewSegmentPage')) },
  {
    path: '/segments/:segmentKey',
    namespaced: true,
    component: lazy(() => import('../features/segments/SegmentPage')),
  },
  { path: '/console', namespaced: true, component: lazy(() => import('../features/evaluation-console/ConsolePage')) },
  { path: '/settings/:tab?', component: lazy(() => import('../features/settings/SettingsPage')) },
  { path: '/onboarding', component: lazy(() => import('../features/onboarding/OnboardingPage')) },
  { path: '/support', component: lazy(() => import('../features/support/SupportPage')) },
];
