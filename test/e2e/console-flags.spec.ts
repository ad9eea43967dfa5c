import type { Flag } from '../../domain/flipt/types.js';
import { consoleFirstPage } from '../../bench/support/sizes.js';
import { expect, test } from './fixtures.js';
import { api, expectAccessible, onlyDefaultNamespace, open, pick, toast, unique } from './console-support.js';

test('create a flag: key follows the name, key rules and messages, type only at creation, then edit it', async ({
  page,
  server,
  namespace,
}) => {
  const name = unique('Checkout Flow');
  const key = name.replace(/\s/g, '-');
  await open(page, server, `/namespaces/${namespace}/flags/new`);
  await expect(page.getByRole('heading', { name: 'New Flag' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Learn more about flags' })).toBeVisible();
  const create = page.getByRole('button', { name: 'Create' });
  await expect(create).toBeDisabled();

  await page.getByLabel('Name', { exact: true }).fill(name);
  await expect(page.getByRole('textbox', { name: 'Key' })).toHaveValue(key);
  await page.getByRole('textbox', { name: 'Key' }).fill('bad.key!');
  await expect(page.getByText('Only letters, numbers, hypens and underscores allowed')).toBeVisible();
  await expect(create).toBeDisabled();
  await page.getByRole('textbox', { name: 'Key' }).fill('');
  await expect(page.getByText('Required')).toBeVisible();
  await page.getByRole('textbox', { name: 'Key' }).fill('with space');
  await expect(page.getByRole('textbox', { name: 'Key' })).toHaveValue('with-space');
  await page.getByRole('textbox', { name: 'Key' }).fill(key);

  // New flags start as VARIANT and disabled; the enabled toggle exists only for VARIANT.
  await expect(page.getByRole('radio', { name: 'Variant' })).toBeChecked();
  await page.getByRole('switch', { name: 'Enabled' }).check();
  await page.getByRole('radio', { name: 'Boolean' }).check();
  await expect(page.getByRole('switch', { name: 'Enabled' })).toBeHidden();
  await page.getByRole('radio', { name: 'Variant' }).check();
  await expect(page.getByRole('switch', { name: 'Enabled' })).not.toBeChecked();
  await page.getByLabel('Description').fill('The new checkout');
  await expectAccessible(page);
  await create.click();

  await expect(toast(page).success).toHaveText('Successfully created flag');
  await expect(page).toHaveURL(new RegExp(`#/namespaces/${namespace}/flags/${key}$`));
  await expect(page.getByRole('heading', { name })).toBeVisible();
  await expect(page.getByText('Created a few seconds ago')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Key' })).toBeDisabled();
  await expect(page.getByRole('radio', { name: 'Boolean' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Variants' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('link', { name: 'Rules' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Analytics' })).toBeVisible();
  await expectAccessible(page);

  // Absolute creation time on hover, in the chosen timezone (the browser's own by default).
  const created = page.locator('time').first();
  await expect(created).toHaveAttribute('title', /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

  const update = page.getByRole('button', { name: 'Update' });
  await expect(update).toBeDisabled();
  await page.getByRole('switch', { name: 'Enabled' }).check();
  await page.getByLabel('Description').fill('Changed');
  await update.click();
  await expect(toast(page).success).toHaveText('Successfully updated flag');
  const stored = await api<Flag>(server, 'GET', `/api/v1/namespaces/${namespace}/flags/${key}`);
  expect(stored).toMatchObject({ enabled: true, description: 'Changed', type: 'VARIANT_FLAG_TYPE' });
  await expect(update).toBeDisabled();

  await page.getByRole('link', { name: 'Rules' }).click();
  await expect(page).toHaveURL(new RegExp(`/flags/${key}/rules$`));
  await expect(page.getByRole('heading', { name: 'Rules' })).toBeVisible();
});

test('a boolean flag has the Rollouts and Analytics tabs and no enabled toggle', async ({
  page,
  server,
  namespace,
}) => {
  const key = unique('dark-mode');
  await api(server, 'POST', `/api/v1/namespaces/${namespace}/flags`, {
    key,
    name: 'Dark mode',
    type: 'BOOLEAN_FLAG_TYPE',
  });
  await open(page, server, `/namespaces/${namespace}/flags/${key}`);
  await expect(page.getByRole('heading', { name: 'Dark mode' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Rollouts' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('link', { name: 'Analytics' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Variants' })).toHaveCount(0);
  await expect(page.getByRole('switch', { name: 'Enabled' })).toHaveCount(0);
});

test('copying is disabled while only one namespace exists', async ({ page, server, namespace }) => {
  const key = unique('lonely');
  await api(server, 'POST', `/api/v1/namespaces/${namespace}/flags`, {
    key,
    name: 'Lonely',
    type: 'BOOLEAN_FLAG_TYPE',
  });
  await onlyDefaultNamespace(page);
  await open(page, server, `/namespaces/${namespace}/flags/${key}`);
  await page.getByRole('button', { name: 'Actions' }).click();
  await expect(page.getByRole('menuitem', { name: 'Copy to Namespace' })).toBeDisabled();
  await expect(page.getByRole('menuitem', { name: 'Delete' })).toBeEnabled();
});

test('variants: new, edit with JSON attachment, default variant, delete', async ({
  page,
  server,
  namespace,
  context,
}) => {
  const key = unique('banner');
  await api(server, 'POST', `/api/v1/namespaces/${namespace}/flags`, {
    key,
    name: 'Banner',
    type: 'VARIANT_FLAG_TYPE',
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await open(page, server, `/namespaces/${namespace}/flags/${key}`);

  await page.getByRole('button', { name: 'Copy key' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Copied!' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  await expect(page.getByRole('status').filter({ hasText: 'Copied!' })).toBeHidden();

  await page.getByRole('button', { name: 'New Variant' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Variant' });
  await dialog.getByLabel('Key').fill('blue!');
  await expect(dialog.getByText('Only letters, numbers, hypens, dots and underscores allowed')).toBeVisible();
  await dialog.getByLabel('Key').fill('blue.v1');
  await dialog.getByLabel('Name').fill('Blue');
  await dialog.getByLabel('Attachment').fill('{"color": ');
  await expect(dialog.getByText('Must be valid JSON')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Create' })).toBeDisabled();
  await dialog.getByLabel('Attachment').fill('{"color": "blue"}');
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toBeHidden();
  await expect(toast(page).success).toHaveText('Successfully created variant.');
  await expect(page.getByRole('cell', { name: 'blue.v1', exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'New Variant' }).click();
  await page.getByRole('dialog', { name: 'New Variant' }).getByLabel('Key').fill('red');
  await page.getByRole('dialog', { name: 'New Variant' }).getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('cell', { name: 'red', exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Edit blue.v1' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Variant' });
  await expect(edit.getByLabel('Attachment')).toHaveValue('{"color":"blue"}');
  await edit.getByLabel('Description').fill('The blue one');
  await edit.getByRole('button', { name: 'Update' }).click();
  await expect(toast(page).success).toHaveText('Successfully updated variant.');
  await expect(page.getByRole('cell', { name: 'The blue one', exact: true })).toBeVisible();

  // The default variant is sent as defaultVariantId.
  const put = page.waitForRequest((request) => request.method() === 'PUT' && request.url().endsWith(`/flags/${key}`));
  await pick(page, 'Default Variant', 'red');
  await page.getByRole('button', { name: 'Update' }).click();
  const body = (await put).postDataJSON();
  expect(body.defaultVariantId).toEqual(expect.any(String));
  expect(body).not.toHaveProperty('defaultVariant');
  await expect(toast(page).success).toHaveText('Successfully updated flag');
  const flag = await api<Flag>(server, 'GET', `/api/v1/namespaces/${namespace}/flags/${key}`);
  expect(flag.defaultVariant?.key).toBe('red');

  await page.getByRole('button', { name: 'Delete blue.v1' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete Variant' });
  await expect(confirm).toContainText('Are you sure you want to delete the variant blue.v1?');
  await expect(confirm).toContainText('This action cannot be undone.');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(toast(page).success).toHaveText('Successfully deleted variant');
  await expect(page.getByRole('cell', { name: 'blue.v1', exact: true })).toBeHidden();
});

test('copy a flag with its variants to another namespace, then delete it', async ({ page, server, namespace }) => {
  const key = unique('copied');
  const target = unique('target');
  await api(server, 'POST', '/api/v1/namespaces', { key: target, name: target });
  await api(server, 'POST', `/api/v1/namespaces/${namespace}/flags`, {
    key,
    name: 'Copied',
    type: 'VARIANT_FLAG_TYPE',
  });
  await api(server, 'POST', `/api/v1/namespaces/${namespace}/flags/${key}/variants`, {
    key: 'one',
    attachment: '{"a":1}',
  });
  await open(page, server, `/namespaces/${namespace}/flags/${key}`);

  await page.getByRole('button', { name: 'Actions' }).click();
  await page.getByRole('menuitem', { name: 'Copy to Namespace' }).click();
  const dialog = page.getByRole('dialog', { name: 'Copy Flag' });
  await pick(dialog, 'Namespace', target);
  await dialog.getByLabel('New Key (optional)').fill(`${key}-copy`);
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Copy' }).click();
  await expect(toast(page).success).toHaveText('Successfully copied flag');
  // closed, the dialog has given the focus back: the menu opened next keeps it
  await expect(dialog).toBeHidden();
  const copy = await api<Flag>(server, 'GET', `/api/v1/namespaces/${target}/flags/${key}-copy`);
  expect(copy.variants.map((variant) => [variant.key, variant.attachment])).toEqual([['one', '{"a":1}']]);

  // Typing selects the menu item that starts with the typed characters.
  await page.getByRole('button', { name: 'Actions' }).click();
  // The menu takes the focus once it is placed: a key typed before that reaches the button.
  await expect(page.getByRole('menu')).toBeFocused();
  await page.keyboard.press('d');
  await expect(page.getByRole('menuitem', { name: 'Delete' })).toBeFocused();
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: 'Delete Flag' });
  await expect(confirm).toContainText(`Are you sure you want to delete the flag ${key}?`);
  await expect(confirm).toContainText('This action cannot be undone.');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(toast(page).success).toHaveText('Successfully deleted flag');
  await expect(page).toHaveURL(new RegExp(`#/namespaces/${namespace}/flags$`));
  await expect(page.getByRole('link', { name: key, exact: true })).toHaveCount(0);
});

test('the flag list searches by key or name, sorts by any column and paginates', async ({ page, server }) => {
  const namespace = unique('many');
  await api(server, 'POST', '/api/v1/namespaces', { key: namespace, name: namespace });
  for (let i = 0; i < 45; i++) {
    const n = String(i).padStart(2, '0');
    await api(server, 'POST', `/api/v1/namespaces/${namespace}/flags`, {
      key: `flag-${n}`,
      name: i === 7 ? 'Special Name' : `Name ${n}`,
      type: i % 2 ? 'BOOLEAN_FLAG_TYPE' : 'VARIANT_FLAG_TYPE',
      enabled: i % 3 === 0,
    });
  }
  await open(page, server, `/namespaces/${namespace}/flags`);
  const rows = page.getByRole('row');
  await expect(rows).toHaveCount(21);
  await expect(page.getByText('Showing 1 to 20 of 45 results')).toBeVisible();
  await expect(rows.nth(1)).toContainText('flag-00');
  await expectAccessible(page);

  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('Showing 21 to 40 of 45 results')).toBeVisible();
  await expect(rows.nth(1)).toContainText('flag-20');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(rows).toHaveCount(6);
  await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();

  await page.getByRole('button', { name: 'Key' }).click();
  await expect(page.getByRole('columnheader', { name: 'Key' })).toHaveAttribute('aria-sort', 'descending');
  await expect(rows.nth(1)).toContainText('flag-44');

  await page.getByRole('button', { name: 'Type' }).click();
  await expect(rows.nth(1)).toContainText('Boolean');

  await page.getByRole('searchbox', { name: 'Search flags' }).fill('special');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText('flag-07');
  await page.getByRole('searchbox', { name: 'Search flags' }).fill('flag-4');
  await expect(rows).toHaveCount(6);
  await expect(page.getByRole('navigation', { name: 'Pagination' })).toBeHidden();
});

test('a flag or segment that fails to load shows its error', async ({ page, server, namespace }) => {
  await open(page, server, `/namespaces/${namespace}/flags/no-such-flag`);
  await expect(page.getByRole('alert')).toHaveText(`flag "${namespace}/no-such-flag" not found`);
  await open(page, server, `/namespaces/${namespace}/segments/no-such-segment`);
  await expect(page.getByRole('alert')).toHaveText(`segment "${namespace}/no-such-segment" not found`);
});

test("the list's Enabled switch turns a flag on and off, by mouse and keyboard, and evaluation follows", async ({
  page,
  server,
  namespace,
}) => {
  const key = unique('switched');
  const flagPath = `/api/v1/namespaces/${namespace}/flags/${key}`;
  await api(server, 'POST', `/api/v1/namespaces/${namespace}/flags`, {
    key,
    name: 'Switched',
    type: 'VARIANT_FLAG_TYPE',
  });
  const on = await api<{ id: string }>(server, 'POST', `${flagPath}/variants`, { key: 'on' });
  await api(server, 'PUT', flagPath, { name: 'Switched', enabled: false, defaultVariantId: on.id });
  const evaluate = () =>
    api<{ reason: string; variantKey: string }>(server, 'POST', '/evaluate/v1/variant', {
      namespaceKey: namespace,
      flagKey: key,
      entityId: 'someone',
      context: {},
    });
  expect((await evaluate()).reason).toBe('FLAG_DISABLED_EVALUATION_REASON');

  await open(page, server, `/namespaces/${namespace}/flags`);
  const toggle = page.getByRole('switch', { name: `Enabled ${key}` });
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  await toggle.click();
  await expect(toast(page).success).toHaveText('Successfully updated flag');
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
  // The switch changes the flag without opening it; the rest of the flag is kept.
  await expect(page).toHaveURL(new RegExp(`#/namespaces/${namespace}/flags$`));
  await expect.poll(async () => (await evaluate()).variantKey).toBe('on');
  expect((await api<Flag>(server, 'GET', flagPath)).defaultVariant?.key).toBe('on');

  await toggle.focus();
  await page.keyboard.press('Space');
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  await expect.poll(async () => (await evaluate()).reason).toBe('FLAG_DISABLED_EVALUATION_REASON');
  await expectAccessible(page);

  // The flag's page, opened next, shows the state set from the list.
  await page.getByRole('link', { name: key, exact: true }).click();
  await expect(page.getByRole('switch', { name: 'Enabled', exact: true })).not.toBeChecked();
});

test('the flag list, opened cold, loads exactly the JavaScript its byte budget counts before its rows show', async ({
  page,
  server,
  namespace,
}) => {
  const key = unique('counted');
  await api(server, 'POST', `/api/v1/namespaces/${namespace}/flags`, { key, name: key, type: 'BOOLEAN_FLAG_TYPE' });
  const loaded = new Set<string>();
  page.on('request', (request) => {
    if (request.resourceType() === 'script') loaded.add(new URL(request.url()).pathname.slice(1));
  });
  await open(page, server, `/namespaces/${namespace}/flags`);
  await expect(page.getByRole('link', { name: key, exact: true })).toBeVisible();
  expect([...loaded].sort()).toEqual([...consoleFirstPage().files].sort());
});
