import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { api, open, unique } from './console-support.js';
import { expect, test } from './fixtures.js';
import { survey } from './surveys-support.js';

/**
 * Every page the console and the demo serve, under their real Content-Security-Policy in Chromium: a
 * `securitypolicyviolation` listener installed before any script runs collects every report, and a
 * single one fails the test (a violation means something the page needs was blocked).
 */
async function watchViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.exposeFunction('reportViolation', (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) =>
      (window as unknown as { reportViolation(text: string): void }).reportViolation(
        `${location.href}: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'}`,
      ),
    );
  });
  return violations;
}

test('every console page renders under its CSP with no violation', async ({ page, server }) => {
  const flag = unique('csp-flag');
  const booleanFlag = unique('csp-bool');
  const segment = unique('csp-segment');
  await api(server, 'POST', '/api/v1/namespaces/default/flags', { key: flag, name: 'CSP', type: 'VARIANT_FLAG_TYPE' });
  await api(server, 'POST', `/api/v1/namespaces/default/flags/${flag}/variants`, { key: 'on' });
  await api(server, 'POST', '/api/v1/namespaces/default/flags', {
    key: booleanFlag,
    name: 'CSP boolean',
    type: 'BOOLEAN_FLAG_TYPE',
  });
  await api(server, 'POST', '/api/v1/namespaces/default/segments', {
    key: segment,
    name: 'CSP',
    matchType: 'ALL_MATCH_TYPE',
  });
  const violations = await watchViolations(page);
  const pages: [string, RegExp][] = [
    ['/', /Flags|Namespace/],
    ['/flags', /Flags/],
    ['/flags/new', /Create Flag|New Flag/],
    [`/flags/${flag}`, /Variants/],
    [`/flags/${flag}/rules`, /Rules/],
    [`/flags/${flag}/analytics`, /Analytics/],
    [`/flags/${booleanFlag}`, /Rollouts/],
    ['/segments', /Segments/],
    ['/segments/new', /Segment/],
    [`/segments/${segment}`, /Constraints/],
    ['/console', /Console/],
    ['/namespaces/default/flags', /Flags/],
    ['/settings', /General|Preferences/],
    ['/settings/namespaces', /Namespaces/],
    ['/settings/tokens', /Tokens/],
    ['/onboarding', /Onboarding|Get started|Welcome/],
    ['/support', /Support|Help/],
  ];
  for (const [route, text] of pages) {
    await open(page, server, route);
    await expect(page.getByText(text).first(), route).toBeVisible();
    // Let the page's lazy chunks, styles and queries settle before the next one.
    await page.waitForLoadState('networkidle');
  }
  expect(violations).toEqual([]);
});

test('the demo page with a survey open and its responses page raise no violation', async ({ page, server }) => {
  const violations = await watchViolations(page);
  const response = await page.goto(`${server.url}/demo/`);
  expect(response?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  await expect(survey(page).getByText('Welcome to the Ensign demo')).toBeVisible();
  // The renderer's Shadow DOM styles are applied, not blocked: the dialog has a laid-out box.
  expect((await survey(page).boundingBox())?.height ?? 0).toBeGreaterThan(50);
  await page.waitForLoadState('networkidle');
  await page.goto(`${server.url}/demo/responses.html`);
  await page.waitForLoadState('networkidle');
  expect(violations).toEqual([]);
});

test('a console page cannot be framed by another site', async ({ page, server }) => {
  // A real server on another port: another origin, on the loopback interface like the console.
  const attacker = createServer((_request, response) => {
    response.setHeader('content-type', 'text/html');
    response.end(`<iframe id="victim" src="${server.url}/" onload="window.victimLoaded = true"></iframe>`);
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  try {
    await page.goto(`http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`);
    // The frame's load event fires whether Chromium rendered the console or its error page.
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { victimLoaded?: boolean }).victimLoaded))
      .toBe(true);
    await expect(page.frameLocator('#victim').locator('#root')).toHaveCount(0);
  } finally {
    attacker.close();
  }
});
