import { useState } from 'react';
import { CopyButton } from './CopyButton';

/** Code snippets by name, one shown at a time behind a tab each, with a copy button. */
export function SnippetTabs({ snippets, legend }: { snippets: Record<string, string>; legend: string }) {
  const names = Object.keys(snippets);
  const [shown, setShown] = useState(names[0]);
  return (
    <div className="snippets">
      <fieldset className="snippet-tabs">
        <legend className="visually-hidden">{legend}</legend>
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
        <CopyButton text={snippets[shown]} label={`Copy ${shown} snippet`} />
      </fieldset>
      <pre className="code-block">
        <code>{snippets[shown]}</code>
      </pre>
    </div>
  );
}
