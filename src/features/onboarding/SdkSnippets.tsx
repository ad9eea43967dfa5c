import { useState } from 'react';
import { CopyButton } from '../../components/CopyButton';
import { curlCommand } from '../evaluation-console';

const EXAMPLE = { flagKey: 'my-flag', entityId: 'user-1', context: { plan: 'pro' } };

/** Evaluating a flag of a namespace on this server, from Node, a browser and a shell. */
export function sdkSnippets(origin: string, namespaceKey: string): Record<string, string> {
  const request = { namespaceKey, ...EXAMPLE };
  const json = (value: unknown) => JSON.stringify(value, null, 2);
  return {
    Node: `// npm install @flipt-io/flipt
import { FliptClient } from '@flipt-io/flipt';

const flipt = new FliptClient({ url: '${origin}' });
const result = await flipt.evaluation.variant(${json(request)});
console.log(result.variantKey);`,
    Browser: `// npm install @flipt-io/flipt-client-js (evaluates in the page from the namespace's snapshot)
import { FliptClient } from '@flipt-io/flipt-client-js';

const flipt = await FliptClient.init({ namespace: '${namespaceKey}', url: '${origin}' });
const result = flipt.evaluateVariant(${json(EXAMPLE)});
console.log(result.variantKey);`,
    curl: curlCommand(`${origin}/evaluate/v1/variant`, request),
  };
}

/** The snippets as tabs, each with a copy button. */
export function SdkSnippets({ namespaceKey }: { namespaceKey: string }) {
  const snippets = sdkSnippets(window.location.origin, namespaceKey);
  const languages = Object.keys(snippets);
  const [language, setLanguage] = useState(languages[0]);
  return (
    <div className="snippets">
      <fieldset className="snippet-tabs">
        <legend className="visually-hidden">SDK</legend>
        {languages.map((name) => (
          <button
            key={name}
            type="button"
            className="snippet-tab"
            aria-pressed={name === language}
            onClick={() => setLanguage(name)}
          >
            {name}
          </button>
        ))}
        <CopyButton text={snippets[language]} label={`Copy ${language} snippet`} />
      </fieldset>
      <pre className="code-block">
        <code>{snippets[language]}</code>
      </pre>
    </div>
  );
}
