import { useState } from 'react';
import { CopyButton } from '../../components/CopyButton';
import type { SurveyEnvironment } from './api';
import { snippets } from './snippets';

/** The environment's snippets, one at a time behind a tab each, with a copy button. */
export function Snippets({ environment }: { environment: SurveyEnvironment }) {
  const all = snippets(window.location.origin, environment.id);
  const names = Object.keys(all);
  const [shown, setShown] = useState(names[0]);
  return (
    <div className="snippets">
      <fieldset className="snippet-tabs">
        <legend className="visually-hidden">Snippet</legend>
        {names.map((name) => (
          <button
            key={name}
            type="button"
            className="snippet-tab"
            aria-pressed={name === shown}
            onClick={() => setShown(name)}
          >
            {name}
          </button>
        ))}
        <CopyButton text={all[shown]} label={`Copy ${shown} snippet`} />
      </fieldset>
      <pre className="code-block">
        <code>{all[shown]}</code>
      </pre>
    </div>
  );
}

/** What each SDK generation the server records is, as a snippet names it. */
const GENERATIONS: Record<string, string> = {
  '1.6': 'init() (Ensign script or npm, @formbricks/js 1.6)',
  '5': 'setup() (@formbricks/js 5)',
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
