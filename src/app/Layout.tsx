import type { ReactNode } from 'react';
import { useNamespaces } from '../features/namespaces/queries';

export function Layout({ children }: { children?: ReactNode }) {
  const namespaces = useNamespaces();
  return (
    <div className="layout">
      <nav className="sidebar" aria-label="Namespaces">
        <h1 className="brand">Ensign</h1>
        {namespaces.isPending && <p>Loading namespaces…</p>}
        {namespaces.isError && <p role="alert">{namespaces.error.message}</p>}
        <ul>
          {namespaces.data?.namespaces.map((namespace) => (
            <li key={namespace.key}>{namespace.name}</li>
          ))}
        </ul>
      </nav>
      <main className="content">{children}</main>
    </div>
  );
}
