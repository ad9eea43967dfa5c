import { SnippetTabs } from '../../components/SnippetTabs';
import type { SurveyEnvironment } from './api';
import { snippets } from './snippets';

/** The environment's snippets, one at a time behind a tab each, with a copy button. */
export function Snippets({ environment }: { environment: SurveyEnvironment }) {
  return <SnippetTabs snippets={snippets(window.location.origin, environment.id)} legend="Snippet" />;
}

/** What each SDK generation the server records is, as a snippet names it. */
const GENERATIONS: Record<string, string> = {
  '1.6': 'init() (Ensign script or npm, @formbricks/js 1.6)',
  '5': 'setup() (@formbricks/js 5)',
  current: "today's client API (React Native, iOS, Android)",
};

/** Whether a widget has synced with this environment yet, and which SDK generations have. */
export function WidgetSeen({ environment }: { environment: SurveyEnvironment }) {
  if (!environment.widgetSetupCompleted) return <span className="status">Not seen on a site yet</span>;
  const generations = environment.sdkGenerations ?? [];
  return (
    <>
      <span className="status status-on">Seen on a site</span>
      {generations.length > 0 && (
        <span className="muted">
          {' '}
          through {generations.map((generation) => GENERATIONS[generation] ?? generation).join(' and ')}
        </span>
      )}
    </>
  );
}
