import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FliptClient } from '@flipt-io/flipt';
import { dialects, startTestApp, type TestApp } from '../support.js';
import { client } from './client.js';

describe.each(dialects)('the real @flipt-io/flipt SDK on %s', (dialect) => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await startTestApp(dialect);
    const call = client(t.app);
    await call('POST', '/api/v1/namespaces', { key: 'sdk', name: 'SDK' });
    for (const key of ['one', 'two', 'three'])
      await call('POST', '/api/v1/namespaces/sdk/flags', { key, name: key, enabled: true });
    await call('POST', '/api/v1/namespaces/sdk/flags/one/variants', { key: 'blue', attachment: '{"hex":"#00f"}' });
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t.close());

  it('lists flags, page by page', async () => {
    const sdk = new FliptClient({ url });
    const all = await sdk.flags.listFlags('sdk');
    expect(all.totalCount).toBe(3);
    expect(all.flags.map((flag) => flag.key)).toEqual(['one', 'two', 'three']);
    expect(all.flags[0]).toMatchObject({
      namespaceKey: 'sdk',
      enabled: true,
      type: 'VARIANT_FLAG_TYPE',
      variants: [{ key: 'blue', attachment: '{"hex":"#00f"}' }],
    });

    const first = await sdk.flags.listFlags('sdk', { limit: 2 });
    expect(first.flags.map((flag) => flag.key)).toEqual(['one', 'two']);
    const rest = await sdk.flags.listFlags('sdk', { limit: 2, pageToken: first.nextPageToken });
    expect(rest.flags.map((flag) => flag.key)).toEqual(['three']);
    expect(rest.nextPageToken).toBe('');
  });

  it("surfaces the server's error message", async () => {
    const sdk = new FliptClient({ url });
    await expect(sdk.flags.listFlags('sdk', { offset: 1 })).rejects.toThrow(
      'limit must be set when offset or pageToken is set',
    );
  });
});
