import { Suspense, lazy, useState } from 'react';
import { useConfig, useInfo } from '../api/meta';
import { useNotificationStore } from '../stores/ui';
import { type SessionUser, useSessionStore } from '../stores/session';
import type { InitialFocus } from './UserMenu';
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

/**
 * The user menu's button. Closed, it is a plain button with the user's avatar; its first press loads
 * the menu (ariakit's), which opens as that press would have opened it and then stays, so the first
 * page does not carry ariakit.
 */
function UserMenuButton({ user }: { user: SessionUser }) {
  const [openedWith, setOpenedWith] = useState<InitialFocus>();
  const avatar = user.imgURL ? (
    <img className="avatar" src={user.imgURL} alt="" />
  ) : (
    <span className="avatar">{user.name[0]}</span>
  );
  const closed = (
    <button
      type="button"
      className="user-button"
      aria-label={`User menu: ${user.name}`}
      aria-haspopup="menu"
      aria-expanded="false"
      // A click without a pointer (detail 0) is Enter or Space.
      onClick={(event) => setOpenedWith(event.detail ? 'container' : 'first')}
      // The arrow keys open it too, as they open the menu button it becomes.
      onKeyDown={(event) => {
        if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
        event.preventDefault();
        setOpenedWith(event.key === 'ArrowDown' ? 'first' : 'last');
      }}
    >
      {avatar}
    </button>
  );
  if (!openedWith) return closed;
  return (
    <Suspense fallback={closed}>
      <UserMenu user={user} initialFocus={openedWith}>
        {avatar}
      </UserMenu>
    </Suspense>
  );
}

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
        {user && <UserMenuButton user={user} />}
      </div>
    </header>
  );
}
