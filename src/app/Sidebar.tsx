import { Suspense, lazy, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { useNamespaces } from '../features/namespaces';
import { useNamespaceStore } from '../stores/namespace';
import { namespacePath, namespacedSection } from '../lib/paths';
import { PRODUCT_NAME } from '../lib/links';
import { Icon, type IconName } from '../components/Icon';

const NamespacePicker = lazy(() => import('./NamespacePicker'));

/**
 * The namespace switcher. Closed, it is a plain button showing the current namespace; the first click
 * loads the searchable picker (ariakit's combobox), which then stays, so the first page does not carry it.
 */
function NamespaceSwitcher({
  current,
  disabled,
  onChange,
}: {
  current: string;
  disabled: boolean;
  onChange(key: string): void;
}) {
  const namespaces = useNamespaces();
  const [opened, setOpened] = useState(false);
  const name = namespaces.data?.namespaces.find((namespace) => namespace.key === current)?.name || current;
  const closed = (
    <div className="field">
      <span className="picker-label" id="namespace-switcher-label">
        Namespace
      </span>
      <button
        type="button"
        role="combobox"
        aria-haspopup="listbox"
        aria-expanded="false"
        aria-labelledby="namespace-switcher-label"
        className="picker"
        disabled={disabled}
        onClick={() => setOpened(true)}
        // The arrow keys open it too, as they open the picker it becomes.
        onKeyDown={(event) => (event.key === 'ArrowDown' || event.key === 'ArrowUp') && setOpened(true)}
      >
        <span className="picker-value">{name}</span>
      </button>
    </div>
  );
  if (!opened) return closed;
  return (
    <Suspense fallback={closed}>
      <NamespacePicker value={current} disabled={disabled} onChange={onChange} />
    </Suspense>
  );
}

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

/** The namespace's sections, as the sidebar lists them: path, icon, label. */
const SECTIONS: [string, IconName, string][] = [
  ['flags', 'flag', 'Flags'],
  ['segments', 'segments', 'Segments'],
  ['surveys', 'chat', 'Surveys'],
  ['console', 'console', 'Console'],
];

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
      <NamespaceSwitcher current={current} disabled={!section} onChange={switchNamespace} />
      {namespaces.isError && <p role="alert">{namespaces.error.message}</p>}
      <div className="nav">
        {SECTIONS.map(([path, icon, label]) => (
          <NavLink key={path} href={namespacePath(current, `/${path}`)} icon={icon} active={section === path}>
            {label}
          </NavLink>
        ))}
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
