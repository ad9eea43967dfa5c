import { Suspense, lazy, useEffect, useState, type ReactNode } from 'react';
import { Redirect, Route, Switch, matchRoute, useLocation, useRouter } from 'wouter';
import { useNamespaces } from '../features/namespaces';
import { useConfig, useConfigQuery } from '../api/meta';
import { useSessionCheck } from '../features/auth';
import { effectiveTheme, usePreferencesStore } from '../stores/preferences';
import { useNamespaceStore } from '../stores/namespace';
import { useSessionStore } from '../stores/session';
import { Sidebar } from './Sidebar';
import { Topbar } from './Topbar';
import { Footer } from './Footer';
import { Banner } from './Banner';
import { SurveyWidget } from './SurveyWidget';
import { Toaster } from './Toaster';
import { ErrorBoundary } from './ErrorPage';
import { NotFound } from '../components/NotFound';
import { NamespaceContext } from '../lib/namespace';
import { pathsOf, routeAt, routes, type AppRoute } from './routes';
import { PRODUCT_NAME } from '../lib/links';

const CommandPalette = lazy(() => import('./CommandPalette'));

function useTheme() {
  const stored = usePreferencesStore((state) => state.theme);
  const config = useConfigQuery();
  const theme = effectiveTheme(stored, config.data?.ui.defaultTheme);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
}

/** Product name (or the top-bar label from the UI configuration), a separator and the namespace. */
function useTitle(namespaceKey: string) {
  const { ui } = useConfig();
  const namespaces = useNamespaces();
  const name = namespaces.data?.namespaces.find((namespace) => namespace.key === namespaceKey)?.name ?? namespaceKey;
  useEffect(() => {
    document.title = `${ui.topbar.label || PRODUCT_NAME} · ${name}`;
  }, [ui.topbar.label, name]);
}

function NamespacedPage({ route, params }: { route: AppRoute; params: Record<string, string | undefined> }) {
  const current = useNamespaceStore((state) => state.current);
  const setCurrent = useNamespaceStore((state) => state.setCurrent);
  const namespaceKey = params.namespaceKey ?? current;
  useEffect(() => {
    if (namespaceKey !== current) setCurrent(namespaceKey);
  }, [namespaceKey, current, setCurrent]);
  const Page = route.component;
  return (
    <NamespaceContext.Provider value={namespaceKey}>
      <Page params={params} />
    </NamespaceContext.Provider>
  );
}

function routeElements(): ReactNode[] {
  return routes.flatMap((route) => {
    const Page = route.component;
    return pathsOf(route).map((path) => (
      <Route key={path} path={path}>
        {(params) => (route.namespaced ? <NamespacedPage route={route} params={params} /> : <Page params={params} />)}
      </Route>
    ));
  });
}

const elements = routeElements();

/**
 * The session gate: the shell (and every call it makes) starts only once the session is known. A call
 * made before would answer 401 and reload the page, over and over while the check is slower than it.
 * The page's chunk makes no call, so it loads meanwhile: the page renders as soon as the gate opens.
 */
export function Layout() {
  const check = useSessionCheck();
  const pageLoaded = useFirstPage();
  const session = useSessionStore((state) => state.session);
  if ((!check.isSuccess && !session) || !pageLoaded) return <p className="muted">Loading…</p>;
  if (check.isSuccess && (!session || (session.required && !session.authenticated)))
    return <Redirect to="/login" replace />;
  return <Shell />;
}

/** Loads the chunk of the page the console opens on; true once it is in (or failed: the page shows why). */
function useFirstPage(): boolean {
  const [location] = useLocation();
  const { parser } = useRouter();
  const [first] = useState(() => routeAt((path) => matchRoute(parser, path, location)[0]));
  const [loaded, setLoaded] = useState(!first);
  useEffect(() => {
    first
      ?.load()
      .catch(() => undefined)
      .then(() => setLoaded(true));
  }, [first]);
  return loaded;
}

function Shell() {
  const [location] = useLocation();
  const current = useNamespaceStore((state) => state.current);
  const [paletteOpen, setPaletteOpen] = useState(false);
  useTheme();
  useTitle(current);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setPaletteOpen((open) => !open);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <div className="layout">
      <Sidebar />
      <div className="main">
        <Topbar />
        <Banner />
        <SurveyWidget />
        <main className="content">
          <ErrorBoundary key={location}>
            <Suspense fallback={<p className="muted">Loading…</p>}>
              <Switch>
                {elements}
                <Route>
                  <NotFound />
                </Route>
              </Switch>
            </Suspense>
          </ErrorBoundary>
        </main>
        <Footer />
      </div>
      {paletteOpen && (
        <Suspense>
          <CommandPalette onClose={() => setPaletteOpen(false)} />
        </Suspense>
      )}
      <Toaster />
    </div>
  );
}
