import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, startServer, test, type RunningServer } from './fixtures.js';
import type { Page } from '@playwright/test';
import { api, expectAccessible, open } from './console-support.js';

const READ_ONLY = 'Not allowed in Read-Only mode';
const FEATURES = `version: "1.2"
namespace: default
flags:
  - key: ro-flag
    name: Read-only flag
    type: VARIANT_FLAG_TYPE
    enabled: true
    variants:
      - key: blue
        name: Blue
segments:
  - key: ro-segment
    name: Read-only segment
    match_type: ALL_MATCH_TYPE
    constraints:
      - type: STRING_COMPARISON_TYPE
        property: plan
        operator: eq
        value: pro
`;

test('a server on local storage makes the console read-only', async ({ page }) => {
  const folder = mkdtempSync(join(tmpdir(), 'ensign-local-'));
  writeFileSync(join(folder, 'features.yml'), FEATURES);
  const server = await startServer(['--storage', 'local', '--storage-path', folder]);
  try {
    await open(page, server, '/namespaces/default/flags');
    await expect(page.getByRole('banner').getByText('Read-Only: local')).toBeVisible();
    await expect(page.getByRole('button', { name: 'New Flag' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'New Flag' })).toHaveAttribute('title', READ_ONLY);
    await expectAccessible(page);
  } finally {
    await server.stop();
    rmSync(folder, { recursive: true, force: true });
  }
});

/**
 * The local storage does not serve the features.yml data yet, so this test seeds a database
 * server and has /meta/config report a local storage without readOnly (read-only by the spec's
 * rule: a storage type other than database).
 */
async function readOnlyConsole(page: Page, server: RunningServer) {
  await api(server, 'POST', '/api/v1/namespaces/default/flags', { key: 'ro-flag', name: 'Read-only flag', type: 'VARIANT_FLAG_TYPE' });
  await api(server, 'POST', '/api/v1/namespaces/default/flags/ro-flag/variants', { key: 'blue', name: 'Blue' });
  await api(server, 'POST', '/api/v1/namespaces/default/segments', { key: 'ro-segment', name: 'Read-only segment' });
  await api(server, 'POST', '/api/v1/namespaces/default/segments/ro-segment/constraints', {
    type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'pro',
  });
  await page.route('**/meta/config', async (route) => {
    const config = await (await route.fetch()).json();
    await route.fulfill({ json: { ...config, storage: { type: 'local' } } });
  });
}

test('read-only mode: badge, disabled fields, submit, copy, delete and constraint actions', async ({ page, server }) => {
  await readOnlyConsole(page, server);
  await open(page, server, '/namespaces/default/flags');
  await expect(page.getByRole('banner').getByText('Read-Only: local')).toBeVisible();
  await expect(page.getByRole('button', { name: 'New Flag' })).toBeDisabled();
  await expectAccessible(page);

  await page.getByRole('link', { name: 'ro-flag' }).click();
  await expect(page.getByRole('heading', { name: 'Read-only flag' })).toBeVisible();
  await expect(page.getByLabel('Name', { exact: true })).toBeDisabled();
  await expect(page.getByLabel('Description')).toBeDisabled();
  await expect(page.getByRole('switch', { name: 'Enabled' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Update' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Update' })).toHaveAttribute('title', READ_ONLY);
  await expect(page.getByRole('button', { name: 'New Variant' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Delete blue' })).toBeDisabled();
  await page.getByRole('button', { name: 'Actions' }).click();
  await expect(page.getByRole('menuitem', { name: 'Copy to Namespace' })).toBeDisabled();
  await expect(page.getByRole('menuitem', { name: 'Delete' })).toBeDisabled();
  await expect(page.getByRole('menuitem', { name: 'Delete' })).toHaveAttribute('title', READ_ONLY);
  await page.keyboard.press('Escape');
  await expectAccessible(page);

  await open(page, server, '/namespaces/default/segments/ro-segment');
  await expect(page.getByRole('heading', { name: 'Read-only segment' })).toBeVisible();
  await expect(page.getByLabel('Name', { exact: true })).toBeDisabled();
  await expect(page.getByRole('radio', { name: /^Any/ })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Update' })).toHaveAttribute('title', READ_ONLY);
  await expect(page.getByRole('row', { name: /plan String == pro/ })).toBeVisible();
  await expect(page.getByRole('button', { name: 'New Constraint' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Edit plan' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Delete plan' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Actions' }).click();
  await expect(page.getByRole('menuitem', { name: 'Copy to Namespace' })).toBeDisabled();
  await expect(page.getByRole('menuitem', { name: 'Delete' })).toBeDisabled();
  await page.keyboard.press('Escape');
  await expectAccessible(page);
});
