import '../../app/shared-chunk';
import { NotFound } from '../../components/NotFound';
import { Tabs } from '../../components/Tabs';
import { SETTINGS_TABS } from './tabs';

export default function SettingsPage({ params }: { params: Record<string, string | undefined> }) {
  const tab = SETTINGS_TABS.find((candidate) => candidate.path === (params.tab ?? ''));
  if (!tab) return <NotFound />;
  const Tab = tab.component;
  return (
    <section>
      <h1>Settings</h1>
      <Tabs label="Settings" base="/settings" tabs={SETTINGS_TABS} current={tab}>
        <Tab />
      </Tabs>
    </section>
  );
}
