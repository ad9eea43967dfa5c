import { describe, expect, it } from 'vitest';
import { sdkSnippets } from '../../../src/features/onboarding/SdkSnippets';

describe('SDK snippets', () => {
  const snippets = sdkSnippets('https://flags.example.com', 'shop');

  it('point every snippet at the server it is shown by and at the current namespace', () => {
    expect(Object.keys(snippets)).toEqual(['Node', 'Browser', 'curl']);
    expect(snippets.Node).toContain("new FliptClient({ url: 'https://flags.example.com' })");
    expect(snippets.Node).toContain('"namespaceKey": "shop"');
    expect(snippets.Browser).toContain("FliptClient.init({ namespace: 'shop', url: 'https://flags.example.com' })");
    expect(snippets.curl).toMatch(/^curl -X POST 'https:\/\/flags\.example\.com\/evaluate\/v1\/variant' /);
  });

  it('send the same evaluation request from Node and curl', () => {
    const nodeRequest = JSON.parse(snippets.Node.match(/variant\((\{[\s\S]*?\n\})\)/)![1]);
    const curlRequest = JSON.parse(snippets.curl.match(/-d '(.*)'$/)![1]);
    expect(nodeRequest).toEqual(curlRequest);
    expect(curlRequest).toEqual({
      namespaceKey: 'shop',
      flagKey: 'my-flag',
      entityId: 'user-1',
      context: { plan: 'pro' },
    });
  });
});
