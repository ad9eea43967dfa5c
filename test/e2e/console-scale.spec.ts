import { mkdtempSync, rmSync } from 'node:fs';
import type { Route } from '@playwright/test';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { manyFlagKey, seedMany } from '../support/many-flags.js';
import { expect, type RunningServer, startServer, test } from './fixtures.js';
import { open, toast } from './console-support.js';

// A namespace of 10,500 flags: the list shows its first rows from a small first page, search finds a
// flag of a later page, and a change made on that flag shows in the list on the way back.

const FLAGS = 10_500;
let server: RunningServer;
let dir: string;

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ensign-e2e-scale-'));
  const url = `file:${join(dir, 'ensign.db')}`;
  await seedMany(url, { flags: FLAGS, segments: 1500 });
  server = await startServer(['--db', url]);
});

test.afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('10,500 flags: first rows from a first page, search on a later page, open, change, back to the list', async ({
  page,
}) => {
  const lists: string[] = [];
  page.on('request', (request) => {
    if (/\/api\/v1\/namespaces\/default\/flags\?/.test(request.url())) lists.push(request.url());
  });
  await open(page, server, '/namespaces/default/flags');
  await expect(page.getByRole('cell', { name: 'Flag 0', exact: true })).toBeVisible();
  // The first rows came from a page of 100; the rest followed page by page with the server's tokens.
  expect(new URL(lists[0]).searchParams.get('limit')).toBe('100');
  expect(new URL(lists[0]).searchParams.has('pageToken')).toBe(false);
  await expect(page.getByText(/Showing 1 to 20 of 10,?500 results/)).toBeVisible({ timeout: 30_000 });
  expect(lists.length).toBeGreaterThan(1);
  expect(lists.slice(1).every((url) => new URL(url).searchParams.get('pageToken'))).toBe(true);

  const key = manyFlagKey(10_321);
  const search = page.getByPlaceholder('Search by key or name');
  await search.fill(key);
  await expect(page.getByRole('row')).toHaveCount(2);
  await page.getByRole('link', { name: key }).click();
  await expect(page.getByRole('heading', { name: 'Flag 10321' })).toBeVisible();
  await page.getByLabel('Name', { exact: true }).fill('Renamed 10321');
  await page.getByRole('button', { name: 'Update' }).click();
  await expect(toast(page).success).toHaveText('Successfully updated flag');

  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Flags' }).click();
  await search.fill(key);
  await expect(page.getByRole('cell', { name: 'Renamed 10321', exact: true })).toBeVisible();
  await search.fill('renamed');
  await expect(page.getByRole('row')).toHaveCount(2);

  // Segments page the same way.
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Segments' }).click();
  await expect(page.getByRole('cell', { name: 'Segment 0', exact: true })).toBeVisible();
  await page.getByPlaceholder('Search by key or name').fill('segment-001499');
  await expect(page.getByRole('cell', { name: 'Segment 1499', exact: true })).toBeVisible();
});

test('after a change, the list shows its fresh first page at once and loads the rest again', async ({ page }) => {
  await open(page, server, '/namespaces/default/flags/flag-000003');
  await page.getByLabel('Name', { exact: true }).fill('Fresh 3');
  await page.getByRole('button', { name: 'Update' }).click();
  await expect(toast(page).success).toHaveText('Successfully updated flag');
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Flags' }).click();
  await expect(page.getByText(/Showing 1 to 20 of 10,?500 results/)).toBeVisible({ timeout: 30_000 });

  // The list is whole and cached; a change invalidates it. Later pages are held back: the fresh first
  // page must show without them (a refetch of every page would show nothing new until they came).
  let holding = true;
  const held: Route[] = [];
  await page.route(/\/api\/v1\/namespaces\/default\/flags\?.*pageToken=/, (route) =>
    holding ? held.push(route) : route.continue(),
  );
  await page.getByRole('link', { name: 'flag-000003' }).click();
  await page.getByLabel('Name', { exact: true }).fill('Fresher 3');
  await page.getByRole('button', { name: 'Update' }).click();
  await expect(toast(page).success).toHaveText('Successfully updated flag');
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Flags' }).click();
  await expect(page.getByRole('cell', { name: 'Fresher 3', exact: true })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /^Loading flags: 100 of 10,500$/ })).toBeVisible();

  holding = false;
  for (const route of held) await route.continue();
  await expect(page.getByText(/Showing 1 to 20 of 10,?500 results/)).toBeVisible({ timeout: 30_000 });
});
