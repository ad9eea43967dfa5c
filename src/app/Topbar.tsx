import { Suspense, lazy } from 'react';
import { useConfig, useInfo } from '../api/meta';
import { useNotificationStore } from '../stores/ui';
import { useSessionStore } from '../stores/session';
import { useRefStore } from '../stores/ref';
import { useNamespaceStore } from '../stores/namespace';
import { useNamespaces } from '../features/namespaces';
import { Icon } from '../components/Icon';

/** The current namespace, by name. */
function CurrentNamespace() {
  const current = useNamespaceStore((state) => state.current);
  const namespaces = useNamespaces();
  const name = namespaces.data?.namespaces.find((namespace) => namespace.key === current)?.name ?? current;
  return (
    <span className="topbar-namespace">
      <Icon name="layers" size={16} />
      <span className="visually-hidden">Namespace: </span>
      {name}
    </span>
  );
}

const UserMenu = lazy(() => import('./UserMenu'));
const RefSelector = lazy(() => import('./RefSelector'));

export function Topbar() {
  const config = useConfig();
  const info = useInfo();
  const user = useSessionStore((state) => state.session?.self);
  const unseen = useNotificationStore((state) => state.unseen);
  const markSeen = useNotificationStore((state) => state.markSeen);
  const chosenRef = useRefStore((state) => state.ref);
  const { storage, ui } = config;
  const gitRef = storage.type === 'git' ? chosenRef || storage.git?.ref : undefined;
  return (
    <header className="topbar" style={ui.topbar.color ? { backgroundColor: ui.topbar.color } : undefined}>
      {ui.topbar.label && <span className="topbar-label">{ui.topbar.label}</span>}
      <CurrentNamespace />
      <div className="topbar-end">
        {storage.readOnly && (
          <span className="badge badge-warning" title="Read-Only">
            <Icon name="lock" size={14} />
            Read-Only: {storage.type}
            {gitRef ? ` (${gitRef})` : ''}
          </span>
        )}
        {storage.type === 'git' && (
          <Suspense>
            <RefSelector />
          </Suspense>
        )}
        {info.updateAvailable && (
          <a className="update" href={info.latestVersionURL} target="_blank" rel="noreferrer" onClick={markSeen}>
            {unseen && <span className="dot" aria-hidden="true" />}
            Update available: {info.latestVersion}
          </a>
        )}
        {user && (
          <Suspense>
            <UserMenu user={user} />
          </Suspense>
        )}
      </div>
    </header>
  );
}
