import { Suspense, lazy } from 'react';
import { useConfig, useInfo } from '../api/meta';
import { useNotificationStore } from '../stores/ui';
import { useSessionStore } from '../stores/session';
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

export function Topbar() {
  const config = useConfig();
  const info = useInfo();
  const user = useSessionStore((state) => state.session?.self);
  const unseen = useNotificationStore((state) => state.unseen);
  const markSeen = useNotificationStore((state) => state.markSeen);
  const { storage, ui } = config;
  return (
    <header className="topbar" style={ui.topbar.color ? { backgroundColor: ui.topbar.color } : undefined}>
      {ui.topbar.label && <span className="topbar-label">{ui.topbar.label}</span>}
      <CurrentNamespace />
      <div className="topbar-end">
        {storage.readOnly && (
          <span className="badge badge-warning" title="Read-Only">
            <Icon name="lock" size={14} />
            Read-Only: {storage.type}
            {storage.type === 'git' && storage.git?.ref ? ` (${storage.git.ref})` : ''}
          </span>
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
