import { Link, useLocation } from 'wouter';
import { useNamespaces } from '../features/namespaces';
import { useNamespaceStore } from '../stores/namespace';
import { namespacePath, namespacedSection } from '../lib/paths';
import { PRODUCT_NAME } from '../lib/links';
import { Icon, type IconName } from '../components/Icon';

function NavLink({
  href,
  icon,
  children,
  active,
}: {
  href: string;
  icon: IconName;
  children: string;
  active: boolean;
}) {
  return (
    <Link href={href} className="nav-link" aria-current={active ? 'page' : undefined}>
      <Icon name={icon} />
      {children}
    </Link>
  );
}

export function Sidebar() {
  const [location, navigate] = useLocation();
  const namespaces = useNamespaces();
  const current = useNamespaceStore((state) => state.current);
  const setCurrent = useNamespaceStore((state) => state.setCurrent);
  const section = namespacedSection(location);

  // Changing the namespace moves to the same page in the new namespace.
  const switchNamespace = (key: string) => {
    setCurrent(key);
    if (section) navigate(namespacePath(key, `/${section}`));
  };

  return (
    <nav className="sidebar" aria-label="Sidebar">
      <Link href="/" className="brand">
        <img src="/favicon.svg" alt="" width="24" height="24" />
        {PRODUCT_NAME}
      </Link>
      <label className="field">
        <span>Namespace</span>
        <select value={current} disabled={!section} onChange={(event) => switchNamespace(event.target.value)}>
          {namespaces.data?.namespaces.map((namespace) => (
            <option key={namespace.key} value={namespace.key}>
              {namespace.name}
            </option>
          ))}
          {!namespaces.data && <option value={current}>{current}</option>}
        </select>
      </label>
      {namespaces.isError && <p role="alert">{namespaces.error.message}</p>}
      <div className="nav">
        <NavLink href={namespacePath(current, '/flags')} icon="flag" active={section === 'flags'}>
          Flags
        </NavLink>
        <NavLink href={namespacePath(current, '/segments')} icon="segments" active={section === 'segments'}>
          Segments
        </NavLink>
        <NavLink href={namespacePath(current, '/console')} icon="console" active={section === 'console'}>
          Console
        </NavLink>
      </div>
      <div className="nav nav-bottom">
        <NavLink href="/settings" icon="settings" active={location.startsWith('/settings')}>
          Settings
        </NavLink>
        <NavLink href="/support" icon="support" active={location === '/support'}>
          Support
        </NavLink>
        <p className="hint">
          Command Mode: <kbd>ctrl</kbd> + <kbd>k</kbd>
        </p>
      </div>
    </nav>
  );
}
