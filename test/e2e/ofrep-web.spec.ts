import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { createGeneratedFlags, type GeneratedFlags } from '../support/generated-flags.js';
import { expect, freePort, type RunningServer, startServer, test } from './fixtures.js';

/**
 * The real @openfeature/ofrep-web-provider with @openfeature/web-sdk in Chromium, on a page served
 * from another origin than the server (so CORS is real), against the built server; and the real
 * @openfeature/flipt-web-provider (over the flipt-client-js 0.2 of its peer range, test/peers/flipt-web)
 * on the snapshot endpoint, which must give the same values.
 */

/** The SDK and the providers bundled for the page, as a site would ship them. */
async function providerBundle(): Promise<string> {
  const result = await esbuild.build({
    stdin: {
      contents: `
        import { OpenFeature } from '@openfeature/web-sdk';
        import { OFREPWebProvider } from '@openfeature/ofrep-web-provider';
        import { FliptWebProvider } from './test/peers/flipt-web/index.js';
        window.OpenFeature = OpenFeature;
        window.OFREPWebProvider = OFREPWebProvider;
        window.FliptWebProvider = FliptWebProvider;
      `,
      resolveDir: process.cwd(),
    },
    bundle: true,
    // flipt-client-js reads import.meta (an ES module only has it).
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'warning',
  });
  return result.outputFiles[0].text;
}

/** The site: a blank page and the bundle, on localhost (the server is on 127.0.0.1, another origin). */
async function startSite(bundle: string): Promise<{ origin: string; close(): Promise<void> }> {
  const port = await freePort();
  const server: Server = createServer((request, response) => {
    if (request.url === '/bundle.js') {
      response.writeHead(200, { 'content-type': 'application/javascript' }).end(bundle);
    } else {
      response
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><title>shop</title><script type="module" src="/bundle.js"></script>');
    }
  });
  await new Promise<void>((done) => server.listen(port, 'localhost', done));
  return { origin: `http://localhost:${port}`, close: () => new Promise((done) => server.close(() => done())) };
}

/** The server with CORS on, and the site on another origin that loads the providers. */
async function startServerAndSite() {
  const configDir = mkdtempSync(join(tmpdir(), 'ensign-ofrep-'));
  const config = join(configDir, 'config.yml');
  writeFileSync(config, 'cors:\n  enabled: true\n');
  const server = await startServer(['--config', config]);
  const site = await startSite(await providerBundle());
  const stop = async () => {
    await site.close();
    await server.stop();
    rmSync(configDir, { recursive: true, force: true });
  };
  return { server, site, stop };
}

async function management(server: RunningServer, method: 'POST' | 'PUT', path: string, body: unknown) {
  const response = await fetch(`${server.url}/api/v1/namespaces/default${path}`, {
    method,
    body: JSON.stringify(body),
  });
  if (response.status !== 200) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as { id: string };
}

test.describe('OFREP web provider in Chromium', () => {
  let server: RunningServer;
  let site: { origin: string; close(): Promise<void> };
  let stop: () => Promise<void>;

  test.beforeAll(async () => {
    ({ server, site, stop } = await startServerAndSite());
    await management(server, 'POST', '/flags', {
      key: 'colour',
      name: 'colour',
      type: 'VARIANT_FLAG_TYPE',
      enabled: true,
    });
    const blue = await management(server, 'POST', '/flags/colour/variants', {
      key: 'blue',
      attachment: '{"hex":"#00f"}',
    });
    await management(server, 'POST', '/segments', { key: 'pros', name: 'pros', matchType: 'ALL_MATCH_TYPE' });
    await management(server, 'POST', '/segments/pros/constraints', {
      type: 'STRING_COMPARISON_TYPE',
      property: 'plan',
      operator: 'eq',
      value: 'pro',
    });
    const rule = await management(server, 'POST', '/flags/colour/rules', { segmentKey: 'pros', rank: 1 });
    await management(server, 'POST', `/flags/colour/rules/${rule.id}/distributions`, {
      variantId: blue.id,
      rollout: 100,
    });
    await management(server, 'POST', '/flags', {
      key: 'switch',
      name: 'switch',
      type: 'BOOLEAN_FLAG_TYPE',
      enabled: true,
    });
    await management(server, 'POST', '/flags', { key: 'off', name: 'off', type: 'BOOLEAN_FLAG_TYPE', enabled: false });
    await management(server, 'POST', '/flags', {
      key: 'retired',
      name: 'retired',
      type: 'VARIANT_FLAG_TYPE',
      enabled: false,
    });
  });
  test.afterAll(async () => stop?.());

  test('evaluates, follows context changes and polling, and polls with 304s while nothing changes', async ({
    page,
  }) => {
    const bulkStatuses: number[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('/ofrep/v1/evaluate/flags') && response.request().method() === 'POST') {
        bulkStatuses.push(response.status());
      }
    });
    await page.goto(`${site.origin}/`);
    await page.evaluate(async (baseUrl) => {
      const { OpenFeature, OFREPWebProvider } = window as any;
      await OpenFeature.setContext({ targetingKey: 'user-1', plan: 'pro' });
      await OpenFeature.setProviderAndWait(new OFREPWebProvider({ baseUrl, pollInterval: 300, cacheMode: 'disabled' }));
    }, server.url);
    const details = (key: string, fallback: unknown) =>
      page.evaluate(
        ([key, fallback]) => {
          const client = (window as any).OpenFeature.getClient();
          return typeof fallback === 'boolean'
            ? client.getBooleanDetails(key, fallback)
            : client.getStringDetails(key, fallback);
        },
        [key, fallback] as const,
      );

    expect(await details('colour', 'grey')).toMatchObject({
      value: 'blue',
      variant: 'blue',
      reason: 'TARGETING_MATCH',
      flagMetadata: { attachment: '{"hex":"#00f"}' },
    });
    expect(await details('switch', false)).toMatchObject({ value: true, reason: 'DEFAULT' });
    // A disabled boolean flag is false; a disabled variant flag is not in the bulk answer, so the caller's default holds.
    expect(await details('off', true)).toMatchObject({ value: false });
    expect(await details('retired', 'grey')).toMatchObject({ value: 'grey', errorCode: 'FLAG_NOT_FOUND' });
    expect(await details('nope', 'grey')).toMatchObject({ value: 'grey', errorCode: 'FLAG_NOT_FOUND' });

    // While nothing changes, polling costs 304s.
    await expect.poll(() => bulkStatuses.filter((status) => status === 304).length).toBeGreaterThanOrEqual(3);
    expect(bulkStatuses.filter((status) => status !== 200 && status !== 304)).toEqual([]);

    // A context change evaluates again.
    await page.evaluate(() => (window as any).OpenFeature.setContext({ targetingKey: 'user-1', plan: 'free' }));
    expect(await details('colour', 'grey')).toMatchObject({ value: '', reason: 'UNKNOWN' });

    // A change on the server reaches the page by polling.
    await management(server, 'PUT', '/flags/switch', { key: 'switch', name: 'switch', enabled: false });
    await expect.poll(async () => (await details('switch', true)).value).toBe(false);
  });
});

test.describe('Flipt web provider and OFREP web provider in Chromium', () => {
  let server: RunningServer;
  let site: { origin: string; close(): Promise<void> };
  let stop: () => Promise<void>;
  let generated: GeneratedFlags;

  test.beforeAll(async () => {
    ({ server, site, stop } = await startServerAndSite());
    generated = await createGeneratedFlags((path, body) => management(server, 'POST', path, body), {
      seed: 20261125,
      variants: 10,
      booleans: 6,
      contexts: 12,
    });
  });
  test.afterAll(async () => stop?.());

  test('give the same values on generated flags and contexts', async ({ page }) => {
    await page.goto(`${site.origin}/`);
    await page.waitForFunction(() => (window as any).FliptWebProvider !== undefined);
    const answers = await page.evaluate(
      async ({ baseUrl, variantFlags, booleanFlags, contexts }) => {
        const { OpenFeature, OFREPWebProvider, FliptWebProvider } = window as any;
        await OpenFeature.setContext('flipt', contexts[0]);
        await OpenFeature.setContext('ofrep', contexts[0]);
        await OpenFeature.setProviderAndWait('flipt', new FliptWebProvider('default', { url: baseUrl }));
        await OpenFeature.setProviderAndWait('ofrep', new OFREPWebProvider({ baseUrl, cacheMode: 'disabled' }));
        const answers: { flag: string; context: unknown; flipt: unknown; ofrep: unknown; reason: string }[] = [];
        for (const context of contexts) {
          await OpenFeature.setContext('flipt', context);
          await OpenFeature.setContext('ofrep', context);
          const flipt = OpenFeature.getClient('flipt');
          const ofrep = OpenFeature.getClient('ofrep');
          for (const flag of variantFlags) {
            const viaOfrep = ofrep.getStringDetails(flag, 'code-default');
            answers.push({
              flag,
              context,
              flipt: flipt.getStringValue(flag, 'code-default'),
              // The Flipt provider answers the caller's default whenever nothing matched.
              ofrep: viaOfrep.reason === 'TARGETING_MATCH' ? viaOfrep.value : 'code-default',
              reason: viaOfrep.reason,
            });
          }
          for (const flag of booleanFlags) {
            const viaOfrep = ofrep.getBooleanDetails(flag, false);
            answers.push({
              flag,
              context,
              flipt: flipt.getBooleanValue(flag, false),
              ofrep: viaOfrep.value,
              reason: viaOfrep.reason,
            });
          }
        }
        return answers;
      },
      { baseUrl: server.url, ...generated },
    );
    expect(answers.length).toBe(
      generated.contexts.length * (generated.variantFlags.length + generated.booleanFlags.length),
    );
    for (const { flag, context, flipt, ofrep } of answers)
      expect({ flag, context, value: flipt }).toEqual({ flag, context, value: ofrep });
    // The set exercises matches and misses alike.
    const matched = answers.filter((answer) => answer.reason === 'TARGETING_MATCH').length;
    expect(matched).toBeGreaterThan(10);
    expect(answers.some((answer) => answer.reason !== 'TARGETING_MATCH' && answer.reason !== 'ERROR')).toBe(true);
  });
});
