// e2e-order: starts first (the slow client API test waits 5 s per call)
import { createServer, type Server } from 'node:http';
import type { Page, Route } from '@playwright/test';
import { expect, freePort, test } from './fixtures.js';

// The loader on a host page of another origin, in front of the real Ensign survey server, with the client
// API failing in every way we know of. The page must never see an uncaught error, and every answer given
// while the API was failing must reach the server exactly once after it recovers.

const ENV = 'clensigndemoenvironment0';
const API_KEY = 'ensign-demo-api-key-0000';

type Fault = (route: Route) => Promise<void>;
const FAULTS: Record<string, Fault> = {
  down: (route) => route.abort('connectionrefused'),
  '500': (route) =>
    route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: '{"code":"internal_server_error","message":"boom","details":{}}',
    }),
  'invalid JSON': (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: '{"data": {"surveys": [' }),
  'a wrong shape': (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: '{"data": {"id": 42, "surveys": {}}, "ok": true}',
    }),
};

let host: Server;
let hostUrl: string;

// The host page: records uncaught errors and rejections, and stands in for the renderer so the test
// can answer through the very callbacks the loader hands to renderSurveyModal.
const page = (apiHost: string) => `<!doctype html>
<html><head><meta charset="utf-8"><title>host</title>
<script>
  window.uncaught = [];
  addEventListener('error', (e) => uncaught.push('error: ' + e.message));
  addEventListener('unhandledrejection', (e) => uncaught.push('rejection: ' + String(e.reason)));
  window.rendered = [];
  window.formbricksSurveys = {
    renderSurveyModal(props) {
      const run = { props, error: false, finished: false };
      props.getSetIsError((v) => (run.error = v));
      props.getSetIsResponseSendingFinished((v) => (run.finished = v));
      rendered.push(run);
    },
  };
</script>
<script src="${apiHost}/js/formbricks.js"></script>
</head><body><h1>A host page</h1></body></html>`;

test.beforeAll(async ({ server }) => {
  const port = await freePort();
  hostUrl = `http://127.0.0.1:${port}/`;
  host = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(page(server.url)));
  await new Promise<void>((resolve) => host.listen(port, '127.0.0.1', resolve));
});
test.afterAll(() => new Promise<void>((resolve) => host.close(() => resolve())));

const init = (p: Page, apiHost: string) =>
  p.evaluate(([environmentId, apiHost]) => (window as any).formbricks.init({ environmentId, apiHost }), [
    ENV,
    apiHost,
  ] as const);

const fault = (p: Page, apiHost: string, f: Fault, only?: RegExp) =>
  p.route(`${apiHost}/api/v1/client/**`, (route) =>
    !only || only.test(route.request().url()) ? f(route) : route.continue(),
  );

const uncaught = (p: Page) => p.evaluate(() => (window as any).uncaught as string[]);

const responsesWith = async (apiHost: string, marker: string) => {
  const r = await fetch(`${apiHost}/api/v1/management/responses`, { headers: { 'x-api-key': API_KEY } });
  const { data } = (await r.json()) as { data: Array<{ data: Record<string, unknown>; finished: boolean }> };
  return data.filter((x) => x.data.name === marker);
};

/** Shows the demo's New Session survey on a page with a healthy API and records its display. */
const showSurvey = async (p: Page, apiHost: string) => {
  await p.goto(hostUrl);
  await init(p, apiHost);
  await expect.poll(() => p.evaluate(() => (window as any).rendered.length)).toBe(1);
  await p.evaluate(() => (window as any).rendered[0].props.onDisplay());
};

const answer = (p: Page, marker: string) =>
  p.evaluate((name) => {
    const { props } = (window as any).rendered[0];
    props.onResponse({ data: { role: 'Developer' }, ttc: { role: 1200 }, finished: false });
    props.onResponse({ data: { name }, ttc: { role: 1200, name: 800 }, finished: true });
  }, marker);

for (const [name, f] of Object.entries(FAULTS)) {
  test(`init with the client API ${name}: no uncaught error, the error state, a clean start once it recovers`, async ({
    page: p,
    server,
  }) => {
    await p.goto(hostUrl);
    await fault(p, server.url, f);
    await init(p, server.url);
    expect(await p.evaluate(() => JSON.parse(localStorage.getItem('formbricks-js') || 'null')?.status)).toBe('error');
    // commands after a failed init are reported, never thrown
    await p.evaluate(() => (window as any).formbricks.track('Code Action'));
    expect(await p.evaluate(() => (window as any).rendered.length)).toBe(0);
    expect(await uncaught(p)).toEqual([]);

    await p.unrouteAll();
    await p.evaluate(() => localStorage.removeItem('formbricks-js'));
    await p.reload();
    await init(p, server.url);
    expect(await p.evaluate(() => JSON.parse(localStorage.getItem('formbricks-js')!).status)).toBe('success');
    await expect.poll(() => p.evaluate(() => (window as any).rendered.length)).toBe(1);
    expect(await uncaught(p)).toEqual([]);
  });

  const recover = name === 'down' || name === 'a wrong shape' ? 'a reload' : 'the retry button';
  test(`answers given while the client API is ${name} reach the server once, after ${recover}`, async ({
    page: p,
    server,
  }) => {
    const marker = `chaos ${name} ${Date.now()}`;
    await showSurvey(p, server.url);
    await fault(p, server.url, f, /\/(responses|displays)/);
    await answer(p, marker);
    await expect.poll(() => p.evaluate(() => (window as any).rendered[0].error), { timeout: 15_000 }).toBe(true);
    expect(await responsesWith(server.url, marker)).toEqual([]);

    await p.unrouteAll();
    if (recover === 'a reload') {
      await p.reload();
      await init(p, server.url);
    } else {
      await p.evaluate(() => (window as any).rendered[0].props.onRetry());
      await expect.poll(() => p.evaluate(() => (window as any).rendered[0].finished)).toBe(true);
    }
    await expect.poll(() => p.evaluate(() => localStorage.getItem('formbricks-js-responses'))).toBeNull();
    const stored = await responsesWith(server.url, marker);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ finished: true, data: { role: 'Developer', name: marker } });
    expect(await uncaught(p)).toEqual([]);
  });
}

test('a slow client API (5 s per call): init waits, answers arrive once, nothing uncaught', async ({
  page: p,
  server,
}) => {
  test.setTimeout(90_000);
  const marker = `chaos slow ${Date.now()}`;
  await p.goto(hostUrl);
  await fault(p, server.url, async (route) => {
    await new Promise((r) => setTimeout(r, 5000));
    await route.continue();
  });
  await init(p, server.url);
  expect(await p.evaluate(() => JSON.parse(localStorage.getItem('formbricks-js')!).status)).toBe('success');
  await expect.poll(() => p.evaluate(() => (window as any).rendered.length)).toBe(1);
  await p.evaluate(() => (window as any).rendered[0].props.onDisplay());
  await answer(p, marker);
  await expect.poll(() => p.evaluate(() => (window as any).rendered[0].finished), { timeout: 40_000 }).toBe(true);
  const stored = await responsesWith(server.url, marker);
  expect(stored).toHaveLength(1);
  expect(stored[0]).toMatchObject({ finished: true, data: { role: 'Developer', name: marker } });
  expect(await p.evaluate(() => (window as any).rendered[0].error)).toBe(false);
  expect(await uncaught(p)).toEqual([]);
});
