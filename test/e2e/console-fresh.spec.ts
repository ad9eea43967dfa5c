import { expect, test } from './fixtures.js';
import { api, offered, open, pick, toast, unique } from './console-support.js';

// Navigate after mutate: what the operator (or someone else) changed shows on the next page opened,
// without a reload.

test('a flag created in the console is in the flag list when the operator goes back to it', async ({
  page,
  server,
  namespace,
}) => {
  const name = unique('Fresh Flag');
  await open(page, server, `/namespaces/${namespace}/flags`);
  await expect(page.getByRole('heading', { name: 'Flags' })).toBeVisible();
  await open(page, server, `/namespaces/${namespace}/flags/new`);
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(toast(page).success).toHaveText('Successfully created flag');
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Flags' }).click();
  await page.getByPlaceholder('Search by key or name').fill(name);
  await expect(page.getByRole('cell', { name, exact: true })).toBeVisible();
});

test('a segment created in the console is offered by the rule form of a flag opened before', async ({
  page,
  server,
  namespace,
}) => {
  const flag = unique('fresh-rules');
  await api(server, 'POST', `/api/v1/namespaces/${namespace}/flags`, {
    key: flag,
    name: flag,
    type: 'VARIANT_FLAG_TYPE',
  });
  await api(server, 'POST', `/api/v1/namespaces/${namespace}/flags/${flag}/variants`, { key: 'on' });
  await open(page, server, `/namespaces/${namespace}/flags/${flag}/rules`);
  await page.getByRole('button', { name: 'New Rule' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Rule' });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');

  const segment = unique('fresh-segment');
  await open(page, server, `/namespaces/${namespace}/segments/new`);
  await page.getByLabel('Name', { exact: true }).fill(segment);
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(toast(page).success).toHaveText('Successfully created segment');

  await open(page, server, `/namespaces/${namespace}/flags/${flag}/rules`);
  await page.getByRole('button', { name: 'New Rule' }).click();
  await dialog.getByRole('combobox', { name: 'Segments' }).click();
  await expect(page.getByRole('option', { name: segment })).toBeVisible();
});

test('changes made by someone else through the API show when a page is opened again', async ({
  page,
  server,
  namespace,
}) => {
  const key = unique('elsewhere');
  await api(server, 'POST', `/api/v1/namespaces/${namespace}/flags`, {
    key,
    name: 'Before',
    type: 'BOOLEAN_FLAG_TYPE',
  });
  await open(page, server, `/namespaces/${namespace}/flags`);
  await page.getByPlaceholder('Search by key or name').fill(key);
  await expect(page.getByRole('cell', { name: 'Before', exact: true })).toBeVisible();
  await api(server, 'PUT', `/api/v1/namespaces/${namespace}/flags/${key}`, { name: 'After', enabled: true });
  const created = unique('ns-elsewhere').toLowerCase();
  await api(server, 'POST', '/api/v1/namespaces', { key: created, name: created });

  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Segments' }).click();
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Flags' }).click();
  await page.getByPlaceholder('Search by key or name').fill(key);
  await expect(page.getByRole('cell', { name: 'After', exact: true })).toBeVisible();
  await open(page, server, '/settings/namespaces');
  await expect(page.getByRole('cell', { name: created, exact: true }).first()).toBeVisible();
});

test('a variant added on the Variants tab is offered by the Default Rule of the Rules tab', async ({
  page,
  server,
  namespace,
}) => {
  const flag = unique('fresh-variants');
  await api(server, 'POST', `/api/v1/namespaces/${namespace}/flags`, {
    key: flag,
    name: flag,
    type: 'VARIANT_FLAG_TYPE',
  });
  await open(page, server, `/namespaces/${namespace}/flags/${flag}/rules`);
  await expect(page.getByRole('heading', { name: 'Default Rule' })).toBeVisible();

  await page.getByRole('link', { name: 'Variants' }).click();
  await page.getByRole('button', { name: 'New Variant' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Variant' });
  await dialog.getByLabel('Key').fill('fresh-blue');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toBeHidden();

  await page.getByRole('link', { name: 'Rules' }).click();
  const defaults = page.getByRole('form', { name: 'Default Rule' });
  await pick(defaults, 'Default Variant', 'fresh-blue');
  await defaults.getByRole('button', { name: 'Update' }).click();
  await expect(toast(page).success).toHaveText('Successfully updated default variant');
});

test('a namespace created in Settings is offered by the sidebar switcher on the next page', async ({
  page,
  server,
  namespace,
}) => {
  const name = unique('Fresh Space');
  await open(page, server, `/namespaces/${namespace}/flags`);
  await expect(page.getByRole('heading', { name: 'Flags' })).toBeVisible();
  await open(page, server, '/settings/namespaces');
  await page.getByRole('button', { name: 'New Namespace' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Namespace' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toBeHidden();

  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Flags' }).click();
  expect(await offered(page, page.getByRole('navigation', { name: 'Sidebar' }), 'Namespace')).toContain(
    `${name} ${name.replace(/\s/g, '-')}`,
  );
});
