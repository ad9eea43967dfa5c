import type { Page } from '@playwright/test';
import { api, type Server } from './console-support.js';

// Every console page with the data it shows, for the page suite (console-pages.spec.ts) and the
// screenshot script (console-screens.spec.ts).

export const SIZES = [
  { width: 1440, height: 900 },
  { width: 375, height: 800 },
] as const;
export const THEMES = ['light', 'dark'] as const;

/** A full-page screenshot named by page, size and theme, into `folder`. */
export function shoot(
  page: Page,
  folder: string,
  name: string,
  size: (typeof SIZES)[number],
  theme: (typeof THEMES)[number],
): Promise<Buffer> {
  return page.screenshot({ path: `${folder}/${name}-${size.width}x${size.height}-${theme}.png`, fullPage: true });
}

/** A name for the file, the route, and what shows once the page has its data. */
export const PAGES: [string, string, (page: Page) => ReturnType<Page['getByRole']>][] = [
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
  [
    'flag-history',
    '/namespaces/default/flags/pages-colour/history',
    (page) => page.getByRole('article', { name: /^distribution created/ }),
  ],
  ['segments', '/namespaces/default/segments', (page) => page.getByRole('link', { name: 'pages-beta' })],
  ['segment-new', '/namespaces/default/segments/new', (page) => page.getByRole('heading', { name: 'New Segment' })],
  ['segment', '/namespaces/default/segments/pages-beta', (page) => page.getByRole('row', { name: /plan/ })],
  ['history', '/namespaces/default/history', (page) => page.getByRole('article', { name: /^rollout created/ })],
  ['console', '/namespaces/default/console', (page) => page.getByRole('heading', { name: 'Console' })],
  ['settings', '/settings', (page) => page.getByLabel('Theme')],
  ['settings-namespaces', '/settings/namespaces', (page) => page.getByRole('cell', { name: 'pages-team' })],
  ['settings-tokens', '/settings/tokens', (page) => page.getByRole('heading', { name: 'Static Tokens' })],
  ['support', '/support', (page) => page.getByRole('heading', { level: 1 })],
  ['not-found', '/no/such/page', (page) => page.getByRole('heading', { name: 'Not Found' })],
];

/** The data the pages show, created once per server (the API calls work on any Ensign build). */
export async function seedPages(server: Server): Promise<void> {
  const flags = '/api/v1/namespaces/default/flags';
  if ((await fetch(`${server.url}${flags}/pages-colour`)).ok) return;
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
}
