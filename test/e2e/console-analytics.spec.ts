import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, startServer, test, type RunningServer } from './fixtures.js';
import { api, expectAccessible, open, unique } from './console-support.js';

async function createFlag(server: RunningServer, namespace: string): Promise<string> {
  const key = unique('counted');
  await api(server, 'POST', `/api/v1/namespaces/${namespace}/flags`, {
    key,
    name: 'Counted',
    type: 'VARIANT_FLAG_TYPE',
    enabled: true,
  });
  return key;
}

async function evaluate(server: RunningServer, namespace: string, flagKey: string, times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    await api(server, 'POST', '/evaluate/v1/variant', {
      namespaceKey: namespace,
      flagKey,
      entityId: `user-${i}`,
      context: {},
    });
  }
}

test('the analytics tab charts the evaluations made through evaluate/v1', async ({ page, server, namespace }) => {
  const key = await createFlag(server, namespace);
  await evaluate(server, namespace, key, 3);

  await open(page, server, `/namespaces/${namespace}/flags/${key}`);
  await page.getByRole('navigation', { name: 'Flag' }).getByRole('link', { name: 'Analytics' }).click();
  await expect(page).toHaveURL(new RegExp(`/flags/${key}/analytics$`));
  await expect(page.getByText('Total evaluations: 3')).toBeVisible();
  await expect(
    page
      .getByRole('img', { name: `Chart of the evaluations of ${key}, last hour` })
      .locator('canvas')
      .first(),
  ).toBeVisible();
  await expectAccessible(page);

  await evaluate(server, namespace, key, 2);
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(page.getByText('Total evaluations: 5')).toBeVisible();

  // An evaluation from the console page counts too, and the tab shows it when opened again.
  await page.getByRole('link', { name: 'Console' }).click();
  await page.getByRole('combobox', { name: 'Flag' }).fill(key);
  await page.getByRole('button', { name: 'Evaluate' }).click();
  await expect(page.getByRole('heading', { name: 'Response' })).toBeVisible();
  await page.goBack();
  await expect(page.getByText('Total evaluations: 6')).toBeVisible();

  for (const range of ['Last 30 minutes', 'Last 4 hours', 'Last 12 hours', 'Last 24 hours', 'Last 7 days']) {
    await page.getByLabel('Range').selectOption({ label: range });
    await expect(
      page.getByRole('img', { name: `Chart of the evaluations of ${key}, ${range.toLowerCase()}` }),
    ).toBeVisible();
    await expect(page.getByText('Total evaluations: 6')).toBeVisible();
  }
  await expectAccessible(page);
});

/** How many pixels of the chart's canvas have exactly this colour. */
function pixelsOf(page: Page, hex: string): Promise<number> {
  return page
    .locator('.uplot canvas')
    .first()
    .evaluate((canvas: HTMLCanvasElement, colour) => {
      const rgb = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));
      const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
      let count = 0;
      for (let i = 0; i < data.length; i += 4)
        if (data[i] === rgb[0] && data[i + 1] === rgb[1] && data[i + 2] === rgb[2] && data[i + 3] === 255) count++;
      return count;
    }, hex);
}

test('the chart is drawn in the colours of the theme and redrawn when it changes', async ({
  page,
  server,
  namespace,
}) => {
  const LIGHT_ACCENT = '#6d28d9';
  const DARK_ACCENT = '#c4b5fd';
  const key = await createFlag(server, namespace);
  await evaluate(server, namespace, key, 1);
  await page.addInitScript(() =>
    localStorage.setItem('preferences', JSON.stringify({ state: { theme: 'light', timezone: 'utc' }, version: 0 })),
  );
  await open(page, server, `/namespaces/${namespace}/flags/${key}/analytics`);
  await expect(page.getByText('Total evaluations: 1')).toBeVisible();
  await expect.poll(() => pixelsOf(page, LIGHT_ACCENT)).toBeGreaterThan(50);
  expect(await pixelsOf(page, DARK_ACCENT)).toBe(0);

  await page.keyboard.press('Control+k');
  await page.getByRole('option', { name: 'Preferences: Change Theme: Dark' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect.poll(() => pixelsOf(page, DARK_ACCENT)).toBeGreaterThan(50);
  expect(await pixelsOf(page, LIGHT_ACCENT)).toBe(0);
  await expectAccessible(page);
});

test('with analytics disabled on the server, the tab is hidden and its route is not found', async ({ page }) => {
  const folder = mkdtempSync(join(tmpdir(), 'ensign-config-'));
  const config = join(folder, 'config.yml');
  writeFileSync(config, 'analytics:\n  enabled: false\n');
  const server = await startServer(['--config', config]);
  try {
    // its own server: the default namespace is its own too
    const key = await createFlag(server, 'default');
    await open(page, server, `/namespaces/default/flags/${key}`);
    const tabs = page.getByRole('navigation', { name: 'Flag' });
    await expect(tabs.getByRole('link', { name: 'Rules' })).toBeVisible();
    await expect(tabs.getByRole('link', { name: 'Analytics' })).toHaveCount(0);
    await open(page, server, `/namespaces/default/flags/${key}/analytics`);
    await expect(page.getByRole('heading', { name: 'Not Found' })).toBeVisible();
  } finally {
    await server.stop();
    rmSync(folder, { recursive: true, force: true });
  }
});
