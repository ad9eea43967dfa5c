import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect, startServer } from './fixtures.js';
import { survey } from './surveys-support.js';

test('the console runs the survey widget for the environment its UI configuration names', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'ensign-console-survey-'));
  const configFile = join(dir, 'config.yml');
  writeFileSync(configFile, 'ui:\n  survey_environment: clensigndemoenvironment0\n');
  const server = await startServer(['--config', configFile]);
  try {
    await page.goto(server.url);
    await expect(survey(page).getByText('Welcome to the Ensign demo')).toBeVisible();
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('without a survey environment the console loads no widget', async ({ page, server }) => {
  await page.goto(server.url);
  await expect(page.getByRole('navigation', { name: 'Sidebar' })).toBeVisible();
  await expect(page.locator('#ensign-survey-loader')).toHaveCount(0);
  await expect(page.locator('#formbricks-web-container')).toHaveCount(0);
});
