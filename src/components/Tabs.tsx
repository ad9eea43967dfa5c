import { Suspense, type ReactNode } from 'react';
import { PageLinks } from './PageLinks';

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
      <PageLinks
        label={label}
        look="tabs"
        links={tabs.map((tab) => ({ key: tab.path, href: tab.path ? `${base}/${tab.path}` : base, label: tab.label }))}
        current={current.path}
      />
      <Suspense fallback={<p className="muted">Loading…</p>}>{children}</Suspense>
    </>
  );
}
