import '../../app/shared-chunk';
import { Suspense } from 'react';
import { Link } from 'wouter';
import { NotFound } from '../../app/NotFound';
import { SETTINGS_TABS } from './tabs';

export default function SettingsPage({ params }: { params: Record<string, string | undefined> }) {
  const tab = SETTINGS_TABS.find((candidate) => candidate.path === (params.tab ?? ''));
  if (!tab) return <NotFound />;
  const Tab = tab.component;
  return (
    <section>
      <h1>Settings</h1>
      <nav className="tabs" aria-label="Settings">
        {SETTINGS_TABS.map((candidate) => (
          <Link
            key={candidate.path}
            href={candidate.path ? `/settings/${candidate.path}` : '/settings'}
            className="tab"
            aria-current={candidate === tab ? 'page' : undefined}
          >
            {candidate.label}
          </Link>
        ))}
      </nav>
      <Suspense fallback={<p className="muted">Loading…</p>}>
        <Tab />
      </Suspense>
    </section>
  );
}
