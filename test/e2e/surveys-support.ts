import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { api } from './console-support.js';
import { expect, freePort, type RunningServer } from './fixtures.js';

/**
 * Files a customer's site would host itself: the demo page, the real Formbricks 1.6 bundles, and the real
 * @formbricks/js 5.1.0 (an ES module, as a site's bundler would ship it).
 */
const ROUTES: Record<string, string> = {
  '/vendor/formbricks-js.umd.js': 'node_modules/@formbricks/js/dist/index.umd.js',
  '/vendor/formbricks-js-5.js': 'node_modules/formbricks-js-5/dist/index.js',
  '/vendor/formbricks-surveys.umd.js': 'node_modules/@formbricks/surveys/dist/index.umd.js',
};
/** A site's own page with nothing on it, for a test to put an SDK on (served by the site, so from its address). */
const BLANK_PAGE = '/shop';
const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'application/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
};

export interface HostSite {
  origin: string;
  /** A page of the site with nothing on it. */
  blankPage: string;
  close(): Promise<void>;
}

/** A static site on its own port, so the page and the survey server are different origins and CORS is real. */
export async function startHostSite(): Promise<HostSite> {
  const port = await freePort();
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://host').pathname;
    if (path === BLANK_PAGE) {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<!doctype html><html lang="en"><head><title>Shop</title></head><body><h1>Shop</h1></body></html>');
      return;
    }
    const file =
      ROUTES[path] ??
      (path.startsWith('/demo/') ? join('public', path === '/demo/' ? '/demo/index.html' : path) : undefined);
    const full = file && resolve(file);
    if (!full || !existsSync(full) || !statSync(full).isFile()) {
      response.writeHead(404).end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': TYPES[extname(full)] ?? 'application/octet-stream' });
    createReadStream(full).pipe(response);
  });
  await new Promise<void>((done) => server.listen(port, 'localhost', done));
  return {
    origin: `http://localhost:${port}`,
    blankPage: `http://localhost:${port}${BLANK_PAGE}`,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

/** The demo page on the host site, pointed at the survey server. */
export function hostPageUrl(site: HostSite, apiHost: string, params: Record<string, string> = {}): string {
  return `${site.origin}/demo/?${new URLSearchParams({ apiHost, ...params }).toString()}`;
}

export async function management<T = any>(
  apiHost: string,
  path: string,
  apiKey = 'ensign-demo-api-key-0000',
): Promise<T> {
  const response = await fetch(`${apiHost}/api/v1/management${path}`, { headers: { 'x-api-key': apiKey } });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: T }).data;
}

/** Waits until the server has the survey's responses in the wanted state (the widget sends them in the background). */
export async function responsesOf(apiHost: string, surveyId: string, apiKey?: string, finished = true) {
  let responses: any[] = [];
  await expect
    .poll(async () => {
      responses = await management<any[]>(apiHost, `/responses?surveyId=${surveyId}`, apiKey);
      return responses.length > 0 && responses.every((response) => response.finished === finished);
    })
    .toBe(true);
  return responses;
}

/** The survey dialog our renderer draws in its Shadow DOM (Playwright's locators pierce open shadow roots). */
export const survey = (page: Page) => page.locator('#formbricks-web-container [role="dialog"]');

/**
 * In namespace `ns`: flag `checkout` giving variants a and b 50/50 to everyone, and the survey environments. Returns
 * the production environment's id and the address its surveys are created at.
 */
export async function fiftyFiftyCheckout(server: RunningServer, ns: string) {
  const flags = `/api/v1/namespaces/${ns}/flags`;
  await api(server, 'POST', '/api/v1/namespaces', { key: ns, name: ns });
  await api(server, 'POST', flags, { key: 'checkout', name: 'Checkout', type: 'VARIANT_FLAG_TYPE', enabled: true });
  const a = await api<{ id: string }>(server, 'POST', `${flags}/checkout/variants`, { key: 'a' });
  const b = await api<{ id: string }>(server, 'POST', `${flags}/checkout/variants`, { key: 'b' });
  await api(server, 'POST', `/api/v1/namespaces/${ns}/segments`, {
    key: 'everyone',
    name: 'Everyone',
    matchType: 'ALL_MATCH_TYPE',
  });
  const rule = await api<{ id: string }>(server, 'POST', `${flags}/checkout/rules`, {
    segmentKey: 'everyone',
    rank: 1,
  });
  for (const variant of [a, b])
    await api(server, 'POST', `${flags}/checkout/rules/${rule.id}/distributions`, {
      variantId: variant.id,
      rollout: 50,
    });
  return surveyEnvironments(server, ns);
}

/**
 * Creates the survey environments of namespace `ns`; returns the production environment's id, the address
 * of that environment in the console API and the address its surveys are created at.
 */
export async function surveyEnvironments(server: RunningServer, ns: string) {
  const environments = `/api/v1/namespaces/${ns}/surveys/environments`;
  await api(server, 'POST', environments, {});
  const [production] = (await api<{ environments: { id: string }[] }>(server, 'GET', environments)).environments;
  const environment = `${environments}/${production.id}`;
  return { environmentId: production.id, environment, surveys: `${environment}/surveys` };
}
