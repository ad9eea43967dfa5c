import type { Namespace } from '../../domain/flipt/types.js';
import { expect, test } from './fixtures.js';
import { api, expectAccessible, offered, open, toast, unique } from './console-support.js';

test('preferences: theme and timezone are applied and remembered', async ({ page, server, namespace }) => {
  const key = unique('timed');
  await api(server, 'POST', `/api/v1/namespaces/${namespace}/flags`, { key, name: 'Timed', type: 'VARIANT_FLAG_TYPE' });
  await open(page, server, '/settings');
  await expect(page.getByRole('link', { name: 'General' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByLabel('Theme')).toHaveValue('system');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'system');
  await expectAccessible(page);

  await page.getByLabel('Theme').selectOption('dark');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expectAccessible(page);
  await page.getByLabel('Theme').selectOption('light');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');

  // Times are in the browser's timezone until UTC is chosen.
  await expect(page.getByLabel('Timezone')).toHaveValue('local');
  await open(page, server, `/namespaces/${namespace}/flags`);
  const created = page.getByRole('row').filter({ hasText: key }).locator('time').first();
  await expect(created).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

  await open(page, server, '/settings');
  await page.getByLabel('Timezone').selectOption('utc');
  await page.reload();
  await expect(page.getByLabel('Timezone')).toHaveValue('utc');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await open(page, server, `/namespaces/${namespace}/flags`);
  await expect(created).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/);
});

test('namespaces: create with the key following the name, edit, delete; the protected one cannot be deleted', async ({
  page,
  server,
}) => {
  const name = unique('Staging Env');
  const key = name.replace(/\s/g, '-');
  await open(page, server, '/settings/namespaces');
  await expect(page.getByRole('link', { name: 'Namespaces' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('button', { name: 'Delete default' })).toBeDisabled();
  await expectAccessible(page);

  await page.getByRole('button', { name: 'New Namespace' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Namespace' });
  await dialog.getByLabel('Name').fill(name);
  await expect(dialog.getByLabel('Key')).toHaveValue(key);
  await dialog.getByLabel('Description').fill('Pre-production');
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toBeHidden();
  await expect(toast(page).success).toHaveText('Successfully created namespace.');
  await expect(page.getByRole('cell', { name: key, exact: true })).toBeVisible();
  // The namespace list refreshes everywhere, the sidebar switcher included.
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Flags' }).click();
  expect(await offered(page, page.getByRole('navigation', { name: 'Sidebar' }), 'Namespace')).toContain(
    `${name} ${key}`,
  );
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('link', { name: 'Namespaces' }).click();

  await page.getByRole('button', { name: `Edit ${key}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Namespace' });
  await expect(edit.getByLabel('Key')).toBeDisabled();
  await edit.getByLabel('Description').fill('Staging');
  await edit.getByRole('button', { name: 'Update' }).click();
  await expect(toast(page).success).toHaveText('Successfully updated namespace.');
  await expect(page.getByRole('cell', { name: 'Staging', exact: true })).toBeVisible();
  expect((await api<Namespace>(server, 'GET', `/api/v1/namespaces/${key}`)).description).toBe('Staging');

  await page.getByRole('button', { name: `Delete ${key}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete Namespace' });
  await expect(confirm).toContainText(`Are you sure you want to delete the namespace ${key}?`);
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(toast(page).success).toHaveText('Successfully deleted namespace');
  await expect(page.getByRole('cell', { name: key, exact: true })).toBeHidden();
});

test('API Tokens: with token authentication off, no New Token but how to enable it', async ({ page, server }) => {
  await open(page, server, '/settings/tokens');
  const section = page.getByRole('region', { name: 'API Tokens' });
  await expect(section.getByRole('heading', { name: 'Static Tokens' })).toBeVisible();
  await expect(section).toContainText('Token authentication is not enabled on this server.');
  await expect(section).toContainText('authentication.methods.token.enabled: true');
  await expect(section.getByRole('button', { name: 'New Token' })).toHaveCount(0);
  // No token to delete either.
  await expect(section.getByRole('button', { name: 'Delete' })).toHaveCount(0);
  await expectAccessible(page);
});

test('switching the namespace keeps the page and the palette offers Switch Namespaces', async ({ page, server }) => {
  const key = unique('team');
  await api(server, 'POST', '/api/v1/namespaces', { key, name: `Team ${key}` });
  await api(server, 'POST', `/api/v1/namespaces/${key}/segments`, { key: 'only-here', name: 'Only here' });
  await open(page, server, '/namespaces/default/segments');
  await expect(page.getByRole('heading', { name: 'Segments' })).toBeVisible();
  // By keyboard: the arrow key opens the switcher, typing filters by key, Enter chooses.
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('combobox', { name: 'Namespace' }).focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('combobox', { name: 'Search Namespace' })).toBeFocused();
  await page.keyboard.type(key);
  await expect(page.getByRole('listbox', { name: 'Namespace' }).getByRole('option')).toHaveCount(1);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`#/namespaces/${key}/segments$`));
  await expect(page.getByRole('link', { name: 'only-here' })).toBeVisible();
  await expect(page).toHaveTitle(`Ensign · Team ${key}`);

  // The un-prefixed aliases use the current namespace.
  await open(page, server, '/segments');
  await expect(page.getByRole('link', { name: 'only-here' })).toBeVisible();

  await page.keyboard.press('Control+k');
  await page.getByRole('combobox', { name: 'Search commands' }).fill('Switch Namespaces: Default');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#\/namespaces\/default\/segments$/);
  await expect(page.getByRole('combobox', { name: 'Namespace' })).toHaveText('Default');
});
