import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, startServer, test, type RunningServer } from './fixtures.js';
import { api, offered, open, pick, toast, unique } from './console-support.js';

// Navigate after mutate: every entity created, updated, deleted or copied in the console shows its new
// state on every page that shows it, reached through the console's own links (no reload); and what
// someone else changes through the API shows when a page is opened again.

const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Sidebar' });
const goTo = (page: Page, link: 'Flags' | 'Segments' | 'Console' | 'Settings') =>
  sidebar(page).getByRole('link', { name: link }).click();
/** Chooses a namespace in the sidebar's switcher by its name. */
const switchTo = (page: Page, name: string) => pick(sidebar(page), 'Namespace', name);

async function openFlag(page: Page, key: string, tab?: 'Variants' | 'Rules' | 'Rollouts') {
  await goTo(page, 'Flags');
  await page.getByPlaceholder('Search by key or name').fill(key);
  await page.getByRole('link', { name: key, exact: true }).click();
  if (tab) await page.getByRole('navigation', { name: 'Flag' }).getByRole('link', { name: tab }).click();
}

async function openSegment(page: Page, key: string) {
  await goTo(page, 'Segments');
  await page.getByRole('link', { name: key, exact: true }).click();
}

async function flagListed(page: Page, key: string) {
  await goTo(page, 'Flags');
  await page.getByPlaceholder('Search by key or name').fill(key);
  return page.getByRole('link', { name: key, exact: true });
}

/** Creates a namespace in Settings › Namespaces; returns its key (the name with dashes for spaces). */
async function createNamespace(page: Page, name: string): Promise<string> {
  await goTo(page, 'Settings');
  await page.getByRole('link', { name: 'Namespaces' }).click();
  await page.getByRole('button', { name: 'New Namespace' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Namespace' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toBeHidden();
  return name.replace(/\s/g, '-');
}

/** Deletes a namespace in Settings › Namespaces and waits until its row is gone. */
async function deleteNamespace(page: Page, key: string) {
  await goTo(page, 'Settings');
  await page.getByRole('link', { name: 'Namespaces' }).click();
  await page.getByRole('button', { name: `Delete ${key}` }).click();
  await page.getByRole('dialog', { name: 'Delete Namespace' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('cell', { name: key, exact: true })).toHaveCount(0);
}

test('flag: create, update, copy and delete show in the list, the flag page and the evaluation console', async ({
  page,
  server,
  namespace,
}) => {
  const target = unique('nav-target').toLowerCase();
  await api(server, 'POST', '/api/v1/namespaces', { key: target, name: `Target ${target}` });
  const name = unique('Nav Flag');
  const key = name.replace(/\s/g, '-');
  // Every page that will show the flag is opened once before, so that a stale cache would be seen.
  await open(page, server, `/namespaces/${namespace}/flags`);
  await goTo(page, 'Console');
  await expect(page.getByRole('heading', { name: 'Console' })).toBeVisible();

  await goTo(page, 'Flags');
  await page
    .getByRole('link', { name: 'New Flag' })
    .or(page.getByRole('button', { name: 'New Flag' }))
    .click();
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(toast(page).success).toHaveText('Successfully created flag');
  await expect(await flagListed(page, key)).toBeVisible();
  await goTo(page, 'Console');
  await page.getByRole('combobox', { name: 'Flag' }).fill(key);
  await expect(page.getByText(`Variant flag: ${name}`)).toBeVisible();

  // Update: the new name in the list, the heading and the console's hint.
  await openFlag(page, key);
  await page.getByLabel('Name', { exact: true }).fill('Renamed flag');
  await page.getByRole('button', { name: 'Update' }).click();
  await expect(toast(page).success).toHaveText('Successfully updated flag');
  await goTo(page, 'Flags');
  await page.getByPlaceholder('Search by key or name').fill(key);
  await expect(page.getByRole('cell', { name: 'Renamed flag', exact: true })).toBeVisible();
  await goTo(page, 'Console');
  await page.getByRole('combobox', { name: 'Flag' }).fill(key);
  await expect(page.getByText('Variant flag: Renamed flag')).toBeVisible();

  // Copy: the target namespace's list, reached through the sidebar switcher, has it.
  await openFlag(page, key);
  await page.getByRole('button', { name: 'Actions' }).click();
  await page.getByRole('menuitem', { name: 'Copy to Namespace' }).click();
  const copy = page.getByRole('dialog', { name: 'Copy Flag' });
  await pick(copy, 'Namespace', `Target ${target}`);
  await copy.getByRole('button', { name: 'Copy' }).click();
  await expect(toast(page).success).toHaveText('Successfully copied flag');
  await switchTo(page, `Target ${target}`);
  await expect(page).toHaveURL(new RegExp(`#/namespaces/${target}/flags`));
  await expect(page.getByRole('link', { name: key, exact: true })).toBeVisible();
  await switchTo(page, namespace);

  // Delete: gone from the list and unknown to the console.
  await openFlag(page, key);
  await page.getByRole('button', { name: 'Actions' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete Flag' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('heading', { name: 'Flags' })).toBeVisible();
  await page.getByPlaceholder('Search by key or name').fill(key);
  await expect(page.getByRole('link', { name: key, exact: true })).toHaveCount(0);
  await goTo(page, 'Console');
  await page.getByRole('combobox', { name: 'Flag' }).fill(key);
  await expect(page.getByText('No flag with this key')).toBeVisible();
});

test('variant: create, update and delete show in the rule form, the Default Rule and the flag form', async ({
  page,
  server,
  namespace,
}) => {
  const flag = unique('nav-variants');
  await api(server, 'POST', `/api/v1/namespaces/${namespace}/flags`, {
    key: flag,
    name: flag,
    type: 'VARIANT_FLAG_TYPE',
  });
  await api(server, 'POST', `/api/v1/namespaces/${namespace}/segments`, { key: `${flag}-all`, name: 'Everyone' });
  await open(page, server, `/namespaces/${namespace}/flags/${flag}/rules`);
  await expect(page.getByRole('heading', { name: 'Default Rule' })).toBeVisible();

  await page.getByRole('navigation', { name: 'Flag' }).getByRole('link', { name: 'Variants' }).click();
  await page.getByRole('button', { name: 'New Variant' }).click();
  let dialog = page.getByRole('dialog', { name: 'New Variant' });
  await dialog.getByLabel('Key').fill('nav-blue');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toBeHidden();

  const rules = page.getByRole('navigation', { name: 'Flag' }).getByRole('link', { name: 'Rules' });
  await rules.click();
  expect(await offered(page, page.getByRole('form', { name: 'Default Rule' }), 'Default Variant')).toEqual([
    'None',
    'nav-blue',
  ]);
  await page.getByRole('button', { name: 'New Rule' }).click();
  dialog = page.getByRole('dialog', { name: 'New Rule' });
  expect(await offered(page, dialog, 'Variant')).toEqual(['nav-blue']);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // Update: the variant's name shows in the pickers, with its key beside it.
  await page.getByRole('navigation', { name: 'Flag' }).getByRole('link', { name: 'Variants' }).click();
  await page.getByRole('button', { name: 'Edit nav-blue' }).click();
  dialog = page.getByRole('dialog', { name: 'Edit Variant' });
  await dialog.getByLabel('Name').fill('Blue');
  await dialog.getByRole('button', { name: 'Update' }).click();
  await expect(dialog).toBeHidden();
  await rules.click();
  expect(await offered(page, page.getByRole('form', { name: 'Default Rule' }), 'Default Variant')).toEqual([
    'None',
    'Blue nav-blue',
  ]);
  expect(await offered(page, page.getByRole('main').locator('form').first(), 'Default Variant')).toContain(
    'Blue nav-blue',
  );

  // Delete: no picker offers it any more.
  await page.getByRole('navigation', { name: 'Flag' }).getByRole('link', { name: 'Variants' }).click();
  await page.getByRole('button', { name: 'Delete nav-blue' }).click();
  await page.getByRole('dialog', { name: 'Delete Variant' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('This flag has no variants.')).toBeVisible();
  await rules.click();
  expect(await offered(page, page.getByRole('form', { name: 'Default Rule' }), 'Default Variant')).toEqual(['None']);
  await expect(page.getByRole('main').getByRole('combobox', { name: 'Default Variant' })).toHaveCount(1);
});

test('segment and constraint: create, update, copy and delete show in the lists, the segment page and the rule and rollout pickers', async ({
  page,
  server,
  namespace,
}) => {
  const target = unique('nav-seg-target').toLowerCase();
  await api(server, 'POST', '/api/v1/namespaces', { key: target, name: `Target ${target}` });
  const variantFlag = unique('nav-rl');
  await api(server, 'POST', `/api/v1/namespaces/${namespace}/flags`, {
    key: variantFlag,
    name: variantFlag,
    type: 'VARIANT_FLAG_TYPE',
  });
  const booleanFlag = unique('nav-ro');
  await api(server, 'POST', `/api/v1/namespaces/${namespace}/flags`, {
    key: booleanFlag,
    name: booleanFlag,
    type: 'BOOLEAN_FLAG_TYPE',
  });
  await open(page, server, `/namespaces/${namespace}/segments`);
  await expect(page.getByRole('heading', { name: 'Segments' })).toBeVisible();

  const name = unique('Nav Segment');
  const key = name.replace(/\s/g, '-');
  await page
    .getByRole('link', { name: 'New Segment' })
    .or(page.getByRole('button', { name: 'New Segment' }))
    .click();
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(toast(page).success).toHaveText('Successfully created segment');

  await goTo(page, 'Segments');
  await expect(page.getByRole('link', { name: key, exact: true })).toBeVisible();
  await openFlag(page, variantFlag, 'Rules');
  await page.getByRole('button', { name: 'New Rule' }).click();
  let dialog = page.getByRole('dialog', { name: 'New Rule' });
  expect(await offered(page, dialog, 'Segments')).toContain(`${name} ${key}`);
  await page.keyboard.press('Escape');
  await openFlag(page, booleanFlag);
  await page.getByRole('button', { name: 'New Rollout' }).click();
  dialog = page.getByRole('dialog', { name: 'New Rollout' });
  await dialog.getByRole('radio', { name: 'Segment' }).check();
  expect(await offered(page, dialog, 'Segments')).toContain(`${name} ${key}`);
  await page.keyboard.press('Escape');

  // Update the name and add a constraint: the list, the page and the pickers follow.
  await openSegment(page, key);
  await page.getByLabel('Name', { exact: true }).fill('Renamed segment');
  await page.getByRole('button', { name: 'Update' }).click();
  await expect(toast(page).success).toHaveText('Successfully updated segment');
  await page.getByRole('button', { name: 'New Constraint' }).click();
  const constraint = page.getByRole('dialog', { name: 'New Constraint' });
  await constraint.getByLabel('Property').fill('plan');
  await constraint.getByLabel('Value').fill('pro');
  await constraint.getByRole('button', { name: 'Create' }).click();
  await expect(toast(page).success).toHaveText('Successfully created constraint');
  await goTo(page, 'Segments');
  await expect(page.getByRole('cell', { name: 'Renamed segment', exact: true })).toBeVisible();
  await page.getByRole('link', { name: key, exact: true }).click();
  await expect(page.getByRole('row', { name: /plan String == pro/ })).toBeVisible();
  await openFlag(page, variantFlag, 'Rules');
  await page.getByRole('button', { name: 'New Rule' }).click();
  expect(await offered(page, page.getByRole('dialog', { name: 'New Rule' }), 'Segments')).toContain(
    `Renamed segment ${key}`,
  );
  await page.keyboard.press('Escape');

  // Edit and delete the constraint: the segment page shows each state after leaving and coming back.
  await openSegment(page, key);
  await page.getByRole('button', { name: 'Edit plan' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Constraint' });
  await edit.getByLabel('Value').fill('enterprise');
  await edit.getByRole('button', { name: 'Update' }).click();
  await expect(toast(page).success).toHaveText('Successfully updated constraint');
  await goTo(page, 'Flags');
  await openSegment(page, key);
  await expect(page.getByRole('row', { name: /plan String == enterprise/ })).toBeVisible();

  // Copy: the target namespace's segment list, through the switcher.
  await page.getByRole('button', { name: 'Actions' }).click();
  await page.getByRole('menuitem', { name: 'Copy to Namespace' }).click();
  const copy = page.getByRole('dialog', { name: 'Copy Segment' });
  await pick(copy, 'Namespace', `Target ${target}`);
  await copy.getByRole('button', { name: 'Copy' }).click();
  await expect(toast(page).success).toHaveText('Successfully copied segment');
  await goTo(page, 'Segments');
  await switchTo(page, `Target ${target}`);
  await expect(page.getByRole('link', { name: key, exact: true })).toBeVisible();
  await page.getByRole('link', { name: key, exact: true }).click();
  await expect(page.getByRole('row', { name: /plan String == enterprise/ })).toBeVisible();
  await switchTo(page, namespace);

  await openSegment(page, key);
  await page.getByRole('button', { name: 'Delete plan' }).click();
  await page.getByRole('dialog', { name: 'Delete Constraint' }).getByRole('button', { name: 'Delete' }).click();
  await goTo(page, 'Flags');
  await openSegment(page, key);
  await expect(page.getByRole('row', { name: /plan String/ })).toHaveCount(0);

  // Delete: gone from the list and from the pickers.
  await page.getByRole('button', { name: 'Actions' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete Segment' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('heading', { name: 'Segments' })).toBeVisible();
  await expect(page.getByRole('link', { name: key, exact: true })).toHaveCount(0);
  await openFlag(page, booleanFlag);
  await page.getByRole('button', { name: 'New Rollout' }).click();
  dialog = page.getByRole('dialog', { name: 'New Rollout' });
  await dialog.getByRole('radio', { name: 'Segment' }).check();
  const left = await dialog
    .getByRole('combobox', { name: 'Segments' })
    .count()
    .then((count) => (count ? offered(page, dialog, 'Segments') : []));
  expect(left.some((option) => option.endsWith(key))).toBe(false);
});

test('rule and rollout: create, update, reorder and delete show on the flag page after leaving it and in evaluations', async ({
  page,
  server,
  namespace,
}) => {
  const flag = unique('nav-rules');
  const segment = unique('nav-everyone');
  // Other tests on this server also name a segment "Everyone": this name is this test's own.
  const segmentName = `Everyone ${segment.split('-').pop()}`;
  await api(server, 'POST', `/api/v1/namespaces/${namespace}/segments`, { key: segment, name: segmentName });
  await api(server, 'POST', `/api/v1/namespaces/${namespace}/flags`, {
    key: flag,
    name: flag,
    type: 'VARIANT_FLAG_TYPE',
  });
  await api(server, 'POST', `/api/v1/namespaces/${namespace}/flags/${flag}/variants`, { key: 'red' });
  await api(server, 'POST', `/api/v1/namespaces/${namespace}/flags/${flag}/variants`, { key: 'green' });
  const booleanFlag = unique('nav-bool');
  await api(server, 'POST', `/api/v1/namespaces/${namespace}/flags`, {
    key: booleanFlag,
    name: booleanFlag,
    type: 'BOOLEAN_FLAG_TYPE',
    enabled: false,
  });
  await open(page, server, `/namespaces/${namespace}/flags/${flag}/rules`);

  await page.getByRole('button', { name: 'New Rule' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Rule' });
  await pick(dialog, 'Segments', segmentName);
  await pick(dialog, 'Variant', 'green');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(toast(page).success).toHaveText('Successfully created rule');

  // The evaluation console answers with the new rule; the flag page shows it after leaving.
  const evaluate = async (key: string, expected: string) => {
    await goTo(page, 'Console');
    await page.getByRole('combobox', { name: 'Flag' }).fill(key);
    await page.getByLabel('Entity ID').fill('user-1');
    await page.getByRole('button', { name: 'Evaluate' }).click();
    await expect(page.getByRole('region', { name: 'Response' })).toContainText(expected);
  };
  await api(server, 'PUT', `/api/v1/namespaces/${namespace}/flags/${flag}`, { name: flag, enabled: true });
  await evaluate(flag, '"variantKey": "green"');
  await openFlag(page, flag, 'Rules');
  await expect(page.getByRole('article', { name: 'Rule 1' })).toContainText(segment);

  // A rule without variant added by someone else, moved first here: evaluations follow the order.
  await api(server, 'POST', `/api/v1/namespaces/${namespace}/flags/${flag}/rules`, { segmentKey: segment, rank: 2 });
  await goTo(page, 'Flags');
  await openFlag(page, flag, 'Rules');
  await expect(page.getByRole('article', { name: 'Rule 2' })).toBeVisible();
  await page.getByRole('button', { name: 'Move rule 2 up' }).click();
  await expect(page.getByRole('article', { name: 'Rule 1' })).toContainText('No variant');
  await evaluate(flag, '"variantKey": ""');
  await openFlag(page, flag, 'Rules');
  await page.getByRole('button', { name: 'Delete rule 1' }).click();
  await page.getByRole('dialog', { name: 'Delete Rule' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('article', { name: 'Rule 2' })).toHaveCount(0);
  await evaluate(flag, '"variantKey": "green"');
  await openFlag(page, flag, 'Rules');
  await page.getByRole('button', { name: 'Delete rule 1' }).click();
  await page.getByRole('dialog', { name: 'Delete Rule' }).getByRole('button', { name: 'Delete' }).click();
  await goTo(page, 'Flags');
  await openFlag(page, flag, 'Rules');
  await expect(page.getByText('This flag has no rules.')).toBeVisible();

  // Rollouts: a threshold at 100% makes the boolean flag true; editing its value to false, then deleting it.
  await openFlag(page, booleanFlag);
  await page.getByRole('button', { name: 'New Rollout' }).click();
  const rollout = page.getByRole('dialog', { name: 'New Rollout' });
  await rollout.getByLabel('Percentage').fill('100');
  await rollout.getByRole('button', { name: 'Create' }).click();
  await expect(toast(page).success).toHaveText('Successfully created rollout');
  await evaluate(booleanFlag, '"enabled": true');
  await openFlag(page, booleanFlag);
  await expect(page.getByRole('article', { name: 'Rollout 1' })).toContainText('100');
  await page.getByRole('button', { name: 'Edit rollout 1' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Rollout' });
  await edit.getByLabel('Value').selectOption('false');
  await edit.getByRole('button', { name: 'Update' }).click();
  await expect(edit).toBeHidden();
  await evaluate(booleanFlag, '"enabled": false');
  await openFlag(page, booleanFlag);
  await expect(page.getByRole('article', { name: 'Rollout 1' })).toContainText('false');
  await page.getByRole('button', { name: 'Delete rollout 1' }).click();
  await page.getByRole('dialog', { name: 'Delete Rollout' }).getByRole('button', { name: 'Delete' }).click();
  await goTo(page, 'Segments');
  await openFlag(page, booleanFlag);
  await expect(page.getByRole('article', { name: 'Rollout 1' })).toHaveCount(0);
});

test('namespace: create, update and delete show in the switcher and the copy dialog', async ({
  page,
  server,
  namespace,
}) => {
  const flag = unique('nav-ns-flag');
  await api(server, 'POST', `/api/v1/namespaces/${namespace}/flags`, {
    key: flag,
    name: flag,
    type: 'BOOLEAN_FLAG_TYPE',
  });
  await open(page, server, `/namespaces/${namespace}/flags/${flag}`);
  await expect(page.getByRole('heading', { name: flag })).toBeVisible();

  const name = unique('Nav Space');
  const key = await createNamespace(page, name);

  // The switcher, the copy dialog and the token form offer it.
  await openFlag(page, flag);
  expect(await offered(page, sidebar(page), 'Namespace')).toContain(`${name} ${key}`);
  await page.getByRole('button', { name: 'Actions' }).click();
  await page.getByRole('menuitem', { name: 'Copy to Namespace' }).click();
  expect(await offered(page, page.getByRole('dialog', { name: 'Copy Flag' }), 'Namespace')).toContain(`${name} ${key}`);
  await page.keyboard.press('Escape');
  await goTo(page, 'Settings');

  // Update the namespace: the switcher shows the new name.
  await page.getByRole('link', { name: 'Namespaces' }).click();
  await page.getByRole('button', { name: `Edit ${key}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Namespace' });
  await dialog.getByLabel('Name').fill(`${name} renamed`);
  await dialog.getByRole('button', { name: 'Update' }).click();
  await expect(dialog).toBeHidden();
  await goTo(page, 'Flags');
  expect(await offered(page, sidebar(page), 'Namespace')).toContain(`${name} renamed ${key}`);

  // Delete the namespace: gone from the switcher and the copy dialog.
  await deleteNamespace(page, key);
  await openFlag(page, flag);
  expect((await offered(page, sidebar(page), 'Namespace')).some((option) => option.endsWith(key))).toBe(false);
  await page.getByRole('button', { name: 'Actions' }).click();
  const copyItem = page.getByRole('menuitem', { name: 'Copy to Namespace' });
  if ((await copyItem.getAttribute('aria-disabled')) !== 'true') {
    await copyItem.click();
    const offeredNow = await offered(page, page.getByRole('dialog', { name: 'Copy Flag' }), 'Namespace');
    expect(offeredNow.some((option) => option.endsWith(key))).toBe(false);
  }
});

test('what someone else changes through the API shows when each page is opened again', async ({
  page,
  server,
  namespace,
}) => {
  const flag = unique('nav-else');
  const segment = unique('nav-eseg');
  await api(server, 'POST', `/api/v1/namespaces/${namespace}/flags`, {
    key: flag,
    name: flag,
    type: 'VARIANT_FLAG_TYPE',
  });
  await open(page, server, `/namespaces/${namespace}/flags/${flag}/rules`);
  await expect(page.getByText('This flag has no rules.')).toBeVisible();
  await goTo(page, 'Segments');

  await api(server, 'POST', `/api/v1/namespaces/${namespace}/segments`, { key: segment, name: 'Elsewhere segment' });
  const variant = await api<{ id: string }>(server, 'POST', `/api/v1/namespaces/${namespace}/flags/${flag}/variants`, {
    key: 'else-red',
  });
  await api(server, 'POST', `/api/v1/namespaces/${namespace}/flags/${flag}/rules`, { segmentKey: segment, rank: 1 });
  await api(server, 'PUT', `/api/v1/namespaces/${namespace}/flags/${flag}`, {
    name: 'Changed elsewhere',
    defaultVariantId: variant.id,
  });

  await goTo(page, 'Flags');
  await page.getByPlaceholder('Search by key or name').fill(flag);
  await expect(page.getByRole('cell', { name: 'Changed elsewhere', exact: true })).toBeVisible();
  await page.getByRole('link', { name: flag, exact: true }).click();
  await page.getByRole('navigation', { name: 'Flag' }).getByRole('link', { name: 'Rules' }).click();
  await expect(page.getByRole('article', { name: 'Rule 1' })).toContainText(segment);
  await expect(
    page.getByRole('form', { name: 'Default Rule' }).getByRole('combobox', { name: 'Default Variant' }),
  ).toHaveText('else-red');
  await goTo(page, 'Segments');
  await expect(page.getByRole('cell', { name: 'Elsewhere segment', exact: true })).toBeVisible();
});

test.describe('on a server with token authentication', () => {
  const BOOTSTRAP = 'nav-bootstrap-token';
  let tokenServer: RunningServer;
  let configDir: string;

  test.beforeAll(async () => {
    configDir = mkdtempSync(join(tmpdir(), 'ensign-nav-tokens-'));
    const configFile = join(configDir, 'config.yml');
    writeFileSync(
      configFile,
      `authentication:\n  required: true\n  methods:\n    token:\n      enabled: true\n      bootstrap:\n        token: ${BOOTSTRAP}\n`,
    );
    tokenServer = await startServer(['--config', configFile]);
  });
  test.afterAll(async () => {
    await tokenServer?.stop();
    rmSync(configDir, { recursive: true, force: true });
  });
  // The browser sends the bootstrap token with every request, as a proxy in front of the console would.
  test.use({ extraHTTPHeaders: { authorization: `Bearer ${BOOTSTRAP}` } });

  const openTokens = async (page: Page) => {
    await goTo(page, 'Settings');
    await page.getByRole('link', { name: 'API Tokens' }).click();
    await expect(page.getByRole('heading', { name: 'Static Tokens' })).toBeVisible();
    return page.getByRole('region', { name: 'API Tokens' });
  };

  test('token: create and delete show in the list after leaving it; namespaces created and deleted show in the token form', async ({
    page,
  }) => {
    await open(page, tokenServer, '/settings/tokens');
    let tokens = page.getByRole('region', { name: 'API Tokens' });
    await expect(tokens.getByRole('cell', { name: 'initial_bootstrap_token', exact: true })).toBeVisible();

    // A namespace created in the console is offered by the token form.
    const space = unique('Token Space');
    const spaceKey = await createNamespace(page, space);

    const name = unique('nav-tok');
    tokens = await openTokens(page);
    await tokens.getByRole('button', { name: 'New Token' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Token' });
    await dialog.getByLabel('Name', { exact: true }).fill(name);
    await pick(dialog, 'Namespace', space);
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(
      page.getByRole('dialog', { name: 'Token Created' }).getByRole('textbox', { name: 'Token' }),
    ).toHaveValue(/^[A-Za-z0-9_-]{43}=$/);
    await page.getByRole('button', { name: 'Done' }).click();

    // Elsewhere and back: the new token is listed.
    await goTo(page, 'Flags');
    tokens = await openTokens(page);
    await expect(tokens.getByRole('cell', { name, exact: true })).toBeVisible();

    // A token someone else creates through the API shows when the page is opened again.
    const other = unique('nav-api-tok');
    const created = await page.request.post(`${tokenServer.url}/auth/v1/method/token`, { data: { name: other } });
    expect(created.status()).toBe(200);
    await goTo(page, 'Flags');
    tokens = await openTokens(page);
    await expect(tokens.getByRole('cell', { name: other, exact: true })).toBeVisible();

    // Delete (revoke) both: gone after leaving and coming back; the bootstrap token remains.
    await tokens.getByRole('checkbox', { name: `Select ${name}` }).check();
    await tokens.getByRole('checkbox', { name: `Select ${other}` }).check();
    await tokens.getByRole('button', { name: 'Delete (2)' }).click();
    await page.getByRole('dialog', { name: 'Delete Tokens' }).getByRole('button', { name: 'Delete' }).click();
    await expect(toast(page).success).toHaveText('Successfully deleted tokens');
    await goTo(page, 'Flags');
    tokens = await openTokens(page);
    await expect(tokens.getByRole('cell', { name: 'initial_bootstrap_token', exact: true })).toBeVisible();
    await expect(tokens.getByRole('cell', { name, exact: true })).toHaveCount(0);
    await expect(tokens.getByRole('cell', { name: other, exact: true })).toHaveCount(0);

    // The namespace deleted in the console is no longer offered.
    await deleteNamespace(page, spaceKey);
    tokens = await openTokens(page);
    await tokens.getByRole('button', { name: 'New Token' }).click();
    const offeredNow = await offered(page, page.getByRole('dialog', { name: 'New Token' }), 'Namespace');
    expect(offeredNow.some((option) => option.endsWith(spaceKey))).toBe(false);
  });
});
