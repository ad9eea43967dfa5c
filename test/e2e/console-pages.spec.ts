import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.js';
import { api, expectAccessible, open } from './console-support.js';

// Every console page, in light and dark: axe-core finds no serious or critical violation, and a
// screenshot at 1440x900 and 375x800 is saved to test-results/screenshots/ (kept as a test artifact).

const SIZES = [
  { width: 1440, height: 900 },
  { width: 375, height: 800 },
] as const;
const THEMES = ['light', 'dark'] as const;

/** A name for the file, the route, and what shows once the page has its data. */
const PAGES: [string, string, (page: Page) => ReturnType<Page['getByRole']>][] = [
  ['onboarding', '/onboarding', (page) => page.getByRole('heading', { level: 1 })],
  ['flags', '/namespaces/default/flags', (page) => page.getByRole('link', { name: 'pages-colour' })],
  ['flag-new', '/namespaces/default/flags/new', (page) => page.getByRole('heading', { name: 'New Flag' })],
  ['flag-variants', '/namespaces/default/flags/pages-colour', (page) => page.getByRole('cell', { name: 'blue' })],
  [
    'flag-rules',
    '/namespaces/default/flags/pages-colour/rules',
    (page) => page.getByRole('article', { name: 'Rule 1' }),
  ],
  [
    'flag-analytics',
    '/namespaces/default/flags/pages-colour/analytics',
    (page) => page.getByRole('link', { name: 'Analytics' }),
  ],
  [
    'flag-rollouts',
    '/namespaces/default/flags/pages-switch',
    (page) => page.getByRole('article', { name: 'Rollout 1' }),
  ],
  ['segments', '/namespaces/default/segments', (page) => page.getByRole('link', { name: 'pages-beta' })],
  ['segment-new', '/namespaces/default/segments/new', (page) => page.getByRole('heading', { name: 'New Segment' })],
  ['segment', '/namespaces/default/segments/pages-beta', (page) => page.getByRole('row', { name: /plan/ })],
  ['console', '/namespaces/default/console', (page) => page.getByRole('heading', { name: 'Console' })],
  ['settings', '/settings', (page) => page.getByLabel('Theme')],
  ['settings-namespaces', '/settings/namespaces', (page) => page.getByRole('cell', { name: 'pages-team' })],
  ['settings-tokens', '/settings/tokens', (page) => page.getByRole('heading', { name: 'Static Tokens' })],
  ['support', '/support', (page) => page.getByRole('heading', { level: 1 })],
  ['not-found', '/no/such/page', (page) => page.getByRole('heading', { name: 'Not Found' })],
];

test.beforeAll(async ({ server }) => {
  const seeded = await api<{ flags: { key: string }[] }>(server, 'GET', '/api/v1/namespaces/default/flags');
  if (seeded.flags.some((flag) => flag.key === 'pages-colour')) return;
  const flags = '/api/v1/namespaces/default/flags';
  await api(server, 'POST', '/api/v1/namespaces/default/segments', {
    key: 'pages-beta',
    name: 'Beta testers',
    matchType: 'ALL_MATCH_TYPE',
  });
  await api(server, 'POST', '/api/v1/namespaces/default/segments/pages-beta/constraints', {
    type: 'STRING_COMPARISON_TYPE',
    property: 'plan',
    operator: 'eq',
    value: 'pro',
  });
  await api(server, 'POST', flags, { key: 'pages-colour', name: 'Colour', type: 'VARIANT_FLAG_TYPE', enabled: true });
  const blue = await api<{ id: string }>(server, 'POST', `${flags}/pages-colour/variants`, { key: 'blue' });
  await api(server, 'POST', `${flags}/pages-colour/variants`, { key: 'red', name: 'Red' });
  const rule = await api<{ id: string }>(server, 'POST', `${flags}/pages-colour/rules`, {
    segmentKey: 'pages-beta',
    rank: 1,
  });
  await api(server, 'POST', `${flags}/pages-colour/rules/${rule.id}/distributions`, {
    variantId: blue.id,
    rollout: 100,
  });
  await api(server, 'POST', flags, { key: 'pages-switch', name: 'Switch', type: 'BOOLEAN_FLAG_TYPE' });
  await api(server, 'POST', `${flags}/pages-switch/rollouts`, { rank: 1, threshold: { percentage: 40, value: true } });
  await api(server, 'POST', '/api/v1/namespaces', { key: 'pages-team', name: 'Team' });
});

for (const [name, route, ready] of PAGES) {
  test(`${name}: no serious axe violation in light and dark, screenshots at 1440 and 375 px`, async ({
    page,
    server,
  }) => {
    for (const theme of THEMES) {
      await page.emulateMedia({ colorScheme: theme });
      for (const size of SIZES) {
        await page.setViewportSize(size);
        await open(page, server, route);
        await expect(ready(page).first()).toBeVisible();
        await expect(page.locator('html')).toHaveCSS('color-scheme', theme);
        if (size.width === 1440) await expectAccessible(page);
        await page.screenshot({
          path: `test-results/screenshots/${name}-${size.width}x${size.height}-${theme}.png`,
          fullPage: true,
        });
      }
    }
  });
}
