import { SnippetTabs } from '../../components/SnippetTabs';
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
  return <SnippetTabs snippets={sdkSnippets(window.location.origin, namespaceKey)} legend="SDK" />;
}
