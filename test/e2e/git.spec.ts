import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGitRemote, type GitRemote } from '../support/git-server.js';
import { expect, startServer, test, type RunningServer } from './fixtures.js';
import { api, expectAccessible, open } from './console-support.js';

const features = (flags: string[]) =>
  `version: "1.3"\nnamespace: default\nflags:\n${flags.map((key) => `  - key: ${key}\n    name: ${key}\n    type: BOOLEAN_FLAG_TYPE\n`).join('')}`;

let remote: GitRemote;
let server: RunningServer;
let dir: string;

test.beforeAll(async () => {
  remote = await startGitRemote();
  remote.commit({ 'features.yml': features(['old-flag']) });
  remote.tag('v1.0.0');
  remote.commit({ 'features.yml': features(['new-flag']) });
  dir = mkdtempSync(join(tmpdir(), 'ensign-e2e-git-'));
  const config = join(dir, 'config.yml');
  writeFileSync(
    config,
    `storage:\n  type: git\n  git:\n    repository: ${remote.url}\n    poll_interval: 1s\n` +
      `    authentication:\n      basic:\n        username: ${remote.username}\n        password: ${remote.password}\n`,
  );
  server = await startServer(['--config', config]);
});

test.afterAll(async () => {
  await server?.stop();
  await remote?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('on git storage the badge shows the ref, and choosing a tag shows its data', async ({ page }) => {
  await open(page, server, '/namespaces/default/flags');
  const banner = page.getByRole('banner');
  await expect(banner.getByText('Read-Only: git (main)')).toBeVisible();
  await expect(page.getByRole('link', { name: 'new-flag' })).toBeVisible();
  const selector = page.getByRole('combobox', { name: 'Git reference' });
  await expect(selector.locator('option')).toHaveText(['main (followed)', 'main', 'v1.0.0']);
  await expectAccessible(page);

  await selector.selectOption('v1.0.0');
  await expect(banner.getByText('Read-Only: git (v1.0.0)')).toBeVisible();
  await expect(page.getByRole('link', { name: 'old-flag' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'new-flag' })).toHaveCount(0);

  // A push to the followed branch shows once the ref is back on it.
  remote.commit({ 'features.yml': features(['new-flag', 'pushed-flag']) });
  await selector.selectOption('');
  await expect(page.getByRole('link', { name: 'new-flag' })).toBeVisible();
  await expect
    .poll(async () => (await api<{ flags: { key: string }[] }>(server, 'GET', '/api/v1/flags')).flags.length, {
      timeout: 15_000,
    })
    .toBe(2);
  await page.reload();
  await expect(page.getByRole('link', { name: 'pushed-flag' })).toBeVisible();
});

test('against a server without the references endpoint (Flipt) the console shows the badge and no selector', async ({
  page,
}) => {
  await page.route('**/internal/v1/git/references', (route) =>
    route.fulfill({ status: 404, contentType: 'application/json', body: '{"code":5,"message":"Not Found"}' }),
  );
  await open(page, server, '/namespaces/default/flags');
  await expect(page.getByRole('banner').getByText('Read-Only: git (main)')).toBeVisible();
  await expect(page.getByRole('link', { name: 'new-flag' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Git reference' })).toHaveCount(0);
});
