import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { expect, startServer, test } from './fixtures.js';
import { api, expectAccessible, onlyDefaultNamespace, open, rewriteJson, toast, unique } from './console-support.js';

test('the shell: sidebar, hint, footer, title, onboarding that leads to the flags', async ({ page, server }) => {
  await page.goto(server.url);
  const sidebar = page.getByRole('navigation', { name: 'Sidebar' });
  for (const link of ['Flags', 'Segments', 'Console', 'Settings', 'Support']) {
    await expect(sidebar.getByRole('link', { name: link, exact: true })).toBeVisible();
  }
  await expect(sidebar.getByText('Command Mode: ctrl + k')).toBeVisible();
  const info = await api<{ version: string }>(server, 'GET', '/meta/info');
  await expect(page.getByRole('contentinfo')).toContainText(info.version);
  await expect(page.getByRole('contentinfo')).toContainText(`© ${new Date().getFullYear()} Ensign`);
  await expect(page).toHaveTitle('Ensign · Default');
  // The namespace switcher is enabled only on the namespaced pages.
  await expect(sidebar.getByRole('combobox', { name: 'Namespace' })).toBeDisabled();
  await expect(page.getByRole('heading', { name: 'Get started' })).toBeVisible();
  await expectAccessible(page);

  await page.getByRole('link', { name: 'Continue to Flags' }).click();
  await expect(page.getByRole('heading', { name: 'Flags' })).toBeVisible();
  await expect(sidebar.getByRole('combobox', { name: 'Namespace' })).toBeEnabled();
  // Onboarding completed: the namespace index now redirects to the flags.
  await page.goto(`${server.url}/#/`);
  await expect(page).toHaveURL(/#\/namespaces\/default\/flags$/);
  await expectAccessible(page);
});

test('an unknown path shows the 404 page with a Home link', async ({ page, server }) => {
  await open(page, server, '/no/such/page');
  await expect(page.getByRole('heading', { name: 'Not Found' })).toBeVisible();
  await expect(page.getByText('The page you are looking for could not be found.')).toBeVisible();
  for (const link of ['Documentation', 'API Reference', 'Community', 'Blog']) {
    await expect(page.getByRole('main').getByRole('link', { name: link })).toBeVisible();
  }
  await expectAccessible(page);
  await page.getByRole('main').getByRole('link', { name: 'Home' }).click();
  await expect(page.getByRole('heading', { name: 'Not Found' })).toBeHidden();
});

test('a page that fails to render shows the error page, whose Go Back steps back', async ({ page, server }) => {
  await page.route('**/api/v1/namespaces/default/flags/broken', (route) =>
    route.fulfill({
      contentType: 'application/json',
      body: JSON.stringify({ key: 'broken', type: 'VARIANT_FLAG_TYPE' }),
    }),
  );
  await open(page, server, '/namespaces/default/flags');
  await expect(page.getByRole('heading', { name: 'Flags' })).toBeVisible();
  await open(page, server, '/namespaces/default/flags/broken');
  await expect(page.getByRole('heading', { name: 'Error' })).toBeVisible();
  await expect(page.getByRole('main')).toContainText('Cannot read properties of undefined');
  await expect(page.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '#/');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Go Back' }).click();
  await expect(page.getByRole('heading', { name: 'Flags' })).toBeVisible();
});

test('a failing call shows a red Error toast until dismissed', async ({ page, server }) => {
  await page.route('**/api/v1/namespaces/default/flags', (route) =>
    route.request().method() === 'POST'
      ? route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({ code: 13, message: 'the store is on fire', details: [] }),
        })
      : route.fallback(),
  );
  await open(page, server, '/namespaces/default/flags/new');
  await page.getByLabel('Name', { exact: true }).fill(unique('Doomed'));
  await page.getByRole('button', { name: 'Create' }).click();
  const error = toast(page).error;
  await expect(error).toContainText('the store is on fire');
  await expectAccessible(page);
  await error.getByRole('button', { name: 'Dismiss' }).click();
  await expect(error).toBeHidden();
});

test('the command palette opens with ctrl+k, navigates, changes the theme and closes with Escape', async ({
  page,
  server,
}) => {
  await onlyDefaultNamespace(page);
  await open(page, server, '/namespaces/default/flags');
  await expect(page.getByRole('heading', { name: 'Flags' })).toBeVisible();
  await page.keyboard.press('Control+k');
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  await expect(palette).toBeVisible();
  for (const entry of [
    'Flags',
    'Segments',
    'Console',
    'Settings: General',
    'Settings: Namespaces',
    'Settings: API Tokens',
    'Support',
  ]) {
    await expect(palette.getByRole('option', { name: entry, exact: true })).toBeVisible();
  }
  await expect(palette.getByRole('option', { name: 'Preferences: Change Theme: Dark' })).toBeVisible();
  // One namespace only: no Switch Namespaces entries.
  await expect(palette.getByRole('option', { name: /Switch Namespaces/ })).toHaveCount(0);
  await expectAccessible(page);

  await page.getByRole('combobox', { name: 'Search commands' }).fill('no such command');
  await expect(palette.getByText('No results found')).toBeVisible();
  await page.getByRole('combobox', { name: 'Search commands' }).fill('segm');
  await page.keyboard.press('Enter');
  await expect(palette).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Segments' })).toBeVisible();

  await page.keyboard.press('Control+k');
  await page.getByRole('combobox', { name: 'Search commands' }).fill('theme: dark');
  await page.keyboard.press('Enter');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');

  await page.keyboard.press('Control+k');
  await expect(palette).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(palette).toBeHidden();
  await page.keyboard.press('Control+k');
  await expect(palette).toBeVisible();
  await page.keyboard.press('Control+k');
  await expect(palette).toBeHidden();
});

test('the banner, top-bar label and colour and default theme come from the server UI configuration', async ({
  page,
}) => {
  const file = join(tmpdir(), `${unique('ensign-ui')}.yml`);
  writeFileSync(
    file,
    'ui:\n  default_theme: dark\n  topbar:\n    color: "#1e3a8a"\n    label: Staging\n  banner:\n    text: Try the managed cloud\n    link: https://example.com/cloud\n    link_text: Sign up\n',
  );
  const server = await startServer(['--config', file]);
  try {
    await open(page, server, '/namespaces/default/flags');
    const banner = page.getByRole('complementary', { name: 'Announcement' });
    await expect(banner).toContainText('Try the managed cloud');
    await expect(banner.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', 'https://example.com/cloud');
    await expect(page).toHaveTitle('Staging · Default');
    await expect(page.getByRole('banner')).toContainText('Staging');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await expectAccessible(page);
    await banner.getByRole('button', { name: 'Dismiss banner' }).click();
    await expect(banner).toBeHidden();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Flags' })).toBeVisible();
    await expect(page.getByRole('complementary', { name: 'Announcement' })).toBeHidden();
  } finally {
    await server.stop();
  }
});

test('the top bar shows the update notification from meta/info and a git read-only badge with the ref', async ({
  page,
  server,
}) => {
  await rewriteJson(page, '**/meta/info', (info) => ({
    ...info,
    updateAvailable: true,
    latestVersion: 'v9.9.9',
    latestVersionURL: 'https://example.com/releases/v9.9.9',
    isRelease: false,
    commit: 'abcdef0123456789',
  }));
  await rewriteJson(page, '**/meta/config', (config) => ({
    ...config,
    storage: { type: 'git', git: { ref: 'main', repository: 'https://example.com/features.git' } },
  }));
  await open(page, server, '/namespaces/default/flags');
  const topbar = page.getByRole('banner');
  await expect(topbar.getByText('Read-Only: git (main)')).toBeVisible();
  const update = topbar.getByRole('link', { name: 'Update available: v9.9.9' });
  await expect(update).toHaveAttribute('href', 'https://example.com/releases/v9.9.9');
  // Not a release: the footer shows the 7-character commit.
  await expect(page.getByRole('contentinfo')).toContainText('abcdef0');
  await expectAccessible(page);
});

test('the user menu shows the signed-in user from the session and logs out', async ({ page, server }) => {
  await page.route('**/auth/v1/self', (route) =>
    route.fulfill({
      json: {
        id: 'a1',
        method: 'METHOD_GITHUB',
        metadata: {
          'io.flipt.auth.github.name': 'Ada Lovelace',
          'io.flipt.auth.github.preferred_username': 'ada',
          'io.flipt.auth.github.picture': `${server.url}/favicon.svg`,
        },
      },
    }),
  );
  let expired = false;
  await page.route('**/auth/v1/self/expire', (route) => {
    expired = route.request().method() === 'PUT';
    return route.fulfill({ json: {} });
  });
  await open(page, server, '/namespaces/default/flags');
  await page.getByRole('button', { name: 'User menu: Ada Lovelace' }).click();
  const menu = page.getByRole('menu');
  await expect(menu.getByText('Ada Lovelace')).toBeVisible();
  await expect(menu.getByText('ada', { exact: true })).toBeVisible();
  await expectAccessible(page);
  await menu.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/#\/login$/);
  expect(expired).toBe(true);
});

test('logout never follows an issuer that is not an http(s) URL (a javascript: issuer ran script)', async ({
  page,
  server,
}) => {
  await page.route('**/auth/v1/self', (route) =>
    route.fulfill({
      json: {
        id: 'a2',
        method: 'METHOD_OIDC',
        metadata: { 'io.flipt.auth.oidc.name': 'Mallory', 'io.flipt.auth.oidc.issuer': 'javascript:window.pwned=1' },
      },
    }),
  );
  await page.route('**/auth/v1/self/expire', (route) => route.fulfill({ json: {} }));
  await open(page, server, '/namespaces/default/flags');
  await page.getByRole('button', { name: 'User menu: Mallory' }).click();
  await page.getByRole('menu').getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/#\/login$/);
  expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
});

test('the flag list stays paginated with 10,000 flags: 20 rows rendered, search and sort over all of them', async ({
  page,
  server,
}) => {
  const flags = Array.from({ length: 10_000 }, (_, i) => ({
    key: `bulk-${String(i).padStart(5, '0')}`,
    name: `Bulk ${i}`,
    description: '',
    enabled: i % 2 === 0,
    type: 'BOOLEAN_FLAG_TYPE',
    createdAt: new Date(Date.UTC(2024, 0, 1, 0, 0, i)).toISOString(),
    updatedAt: '2024-01-01T00:00:00Z',
    variants: [],
    namespaceKey: 'default',
  }));
  // A server holding 10,000 flags, answering pages by limit and pageToken as the Flipt API does.
  await page.route(/\/api\/v1\/namespaces\/default\/flags(\?|$)/, (route) => {
    const query = new URL(route.request().url()).searchParams;
    const offset = Number(query.get('pageToken') || 0);
    const end = offset + Number(query.get('limit') || flags.length);
    return route.fulfill({
      json: {
        flags: flags.slice(offset, end),
        nextPageToken: end < flags.length ? String(end) : '',
        totalCount: flags.length,
      },
    });
  });
  await open(page, server, '/namespaces/default/flags');
  const rows = page.getByRole('row');
  await expect(page.getByText('Showing 1 to 20 of 10000 results')).toBeVisible();
  await expect(rows).toHaveCount(21);
  await expect(page.getByText('Page 1 of 500')).toBeVisible();
  await page.getByRole('button', { name: 'Created' }).click();
  await page.getByRole('button', { name: 'Created' }).click();
  await expect(rows.nth(1)).toContainText('bulk-09999');
  await page.getByRole('searchbox', { name: 'Search flags' }).fill('Bulk 4242');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText('bulk-04242');
});

test('the console and support pages are reachable from the sidebar and accessible', async ({ page, server }) => {
  await open(page, server, '/namespaces/default/flags');
  const sidebar = page.getByRole('navigation', { name: 'Sidebar' });
  await sidebar.getByRole('link', { name: 'Console', exact: true }).click();
  await expect(page).toHaveURL(/#\/namespaces\/default\/console$/);
  await expect(page.getByRole('heading', { name: 'Console' })).toBeVisible();
  await expectAccessible(page);
  await sidebar.getByRole('link', { name: 'Support', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Support' })).toBeVisible();
  await expectAccessible(page);
});
