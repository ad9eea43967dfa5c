import { Suspense, type ReactNode } from 'react';
import { Link } from 'wouter';

interface TabsProps<T extends { label: string; path: string }> {
  /** Names the tab list, e.g. "Flag". */
  label: string;
  /** The path of the index tab; other tabs are `${base}/${path}`. */
  base: string;
  tabs: readonly T[];
  current: T;
  /** The current tab's (lazily loaded) content. */
  children: ReactNode;
}

/** A row of tab links, one per path below `base`, then the current tab's content. */
export function Tabs<T extends { label: string; path: string }>({
  label,
  base,
  tabs,
  current,
  children,
}: TabsProps<T>) {
  return (
    <>
      <nav className="tabs" aria-label={label}>
        {tabs.map((candidate) => (
          <Link
            key={candidate.path}
            href={candidate.path ? `${base}/${candidate.path}` : base}
            className="tab"
            aria-current={candidate === current ? 'page' : undefined}
          >
            {candidate.label}
          </Link>
        ))}
      </nav>
      <Suspense fallback={<p className="muted">Loading…</p>}>{children}</Suspense>
    </>
  );
}
