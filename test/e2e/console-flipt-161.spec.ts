import type { Page } from '@playwright/test';
import type { Flag, Segment, Variant } from '../../domain/flipt/types.js';
import { expect, test } from './fixtures.js';
import { api, expectAccessible, offered, open, pick, toast, unique } from './console-support.js';

// What Flipt 1.61's console shows that 1.47's did not: the flag and segment tables (columns, a boolean
// flag's default value, the sort kept while the console is open), flag metadata, the local timezone by
// default, segments picked by name and unnamed variants shown by key. Each journey changes something,
// leaves through the console's own links and comes back to see it.

const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Sidebar' });
const goTo = (page: Page, link: 'Flags' | 'Segments' | 'Settings') =>
  sidebar(page).getByRole('link', { name: link }).click();
/** The flag page's relative creation time, whose title is the absolute time. */
const createdOnPage = (page: Page) => page.locator('time[title]').first();
const flagPath = (namespace: string, key = '') => `/api/v1/namespaces/${namespace}/flags${key && `/${key}`}`;

async function openFlag(page: Page, key: string, tab?: 'Variants' | 'Rules' | 'Rollouts') {
  await goTo(page, 'Flags');
  await page.getByRole('link', { name: key, exact: true }).click();
  if (tab) await page.getByRole('navigation', { name: 'Flag' }).getByRole('link', { name: tab }).click();
}

test("the flag table: 1.61's columns, a boolean flag's default value, and its sort kept after leaving", async ({
  page,
  server,
  namespace,
}) => {
  const variantKey = unique('a-variant');
  const booleanKey = unique('b-boolean');
  await api(server, 'POST', flagPath(namespace), { key: variantKey, name: 'Variant flag', type: 'VARIANT_FLAG_TYPE' });
  await api(server, 'POST', flagPath(namespace), {
    key: booleanKey,
    name: 'Boolean flag',
    description: 'Shown in the table',
    type: 'BOOLEAN_FLAG_TYPE',
    enabled: true,
  });
  await open(page, server, `/namespaces/${namespace}/flags`);
  await expect(page.getByRole('columnheader')).toHaveText([
    'Key',
    'Name',
    'Description',
    'Evaluation',
    'Type',
    'Created',
    'Updated',
  ]);
  // Description and Evaluation do not sort, as in Flipt's table.
  await expect(page.getByRole('button', { name: 'Description' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Evaluation' })).toHaveCount(0);
  await expect(page.getByRole('cell', { name: 'Shown in the table', exact: true })).toBeVisible();
  const rows = page.getByRole('row');
  await expect(rows.nth(1)).toContainText(variantKey);

  // A boolean flag's Evaluation is its default value, what it returns when no rollout matches.
  const defaultValue = page.getByRole('switch', { name: `Default value ${booleanKey}` });
  await expect(defaultValue).toHaveText('True');
  await expect(page.getByRole('switch', { name: `Enabled ${variantKey}` })).toHaveText('Disabled');
  await expectAccessible(page);
  await defaultValue.click();
  await expect(toast(page).success).toHaveText('Successfully updated flag');
  await expect(defaultValue).toHaveText('False');

  // The Default Rollout of its rollouts tab is the same value; set there, the table shows it.
  await page.getByRole('link', { name: booleanKey, exact: true }).click();
  const defaultRollout = page.getByRole('form', { name: 'Default Rollout' });
  await expect(defaultRollout.getByLabel('Value')).toHaveValue('false');
  await defaultRollout.getByLabel('Value').selectOption('true');
  await defaultRollout.getByRole('button', { name: 'Update' }).click();
  await expect(toast(page).success).toHaveText('Successfully updated default rollout');
  await goTo(page, 'Flags');
  await expect(defaultValue).toHaveText('True');
  await expect(defaultValue).toHaveAttribute('aria-checked', 'true');

  // Sorted by Updated, newest first: the sort outlives a visit to another page.
  await page.getByRole('button', { name: 'Updated' }).click();
  await page.getByRole('button', { name: 'Updated' }).click();
  await expect(page.getByRole('columnheader', { name: 'Updated' })).toHaveAttribute('aria-sort', 'descending');
  await expect(rows.nth(1)).toContainText(booleanKey);
  await goTo(page, 'Segments');
  await expect(page.getByRole('heading', { name: 'Segments' })).toBeVisible();
  await goTo(page, 'Flags');
  await expect(page.getByRole('columnheader', { name: 'Updated' })).toHaveAttribute('aria-sort', 'descending');
  await expect(rows.nth(1)).toContainText(booleanKey);
  // As in Flipt, it lives in memory: a reload starts from the default sort.
  await page.reload();
  await expect(page.getByRole('columnheader', { name: 'Key' })).toHaveAttribute('aria-sort', 'ascending');
  await expect(rows.nth(1)).toContainText(variantKey);
});

test("the segment table: 1.61's columns, a description edited in the console, the sort kept after leaving", async ({
  page,
  server,
  namespace,
}) => {
  const anyKey = unique('any');
  const allKey = unique('all');
  await api(server, 'POST', `/api/v1/namespaces/${namespace}/segments`, {
    key: anyKey,
    name: 'Any segment',
    matchType: 'ANY_MATCH_TYPE',
  });
  await api(server, 'POST', `/api/v1/namespaces/${namespace}/segments`, {
    key: allKey,
    name: 'All segment',
    matchType: 'ALL_MATCH_TYPE',
  });
  await open(page, server, `/namespaces/${namespace}/segments`);
  await expect(page.getByRole('columnheader')).toHaveText([
    'Key',
    'Name',
    'Match Type',
    'Description',
    'Created',
    'Updated',
  ]);
  await expect(page.getByRole('button', { name: 'Description' })).toHaveCount(0);
  await expectAccessible(page);

  await page.getByRole('link', { name: anyKey, exact: true }).click();
  await page.getByLabel('Description').fill('Everyone on a trial');
  await page.getByRole('button', { name: 'Update' }).click();
  await expect(toast(page).success).toHaveText('Successfully updated segment');
  await goTo(page, 'Segments');
  await expect(page.getByRole('row').filter({ hasText: anyKey })).toContainText('Everyone on a trial');

  // Sorted by Match Type, Any last: kept after a visit to the flags.
  const rows = page.getByRole('row');
  await expect(rows.nth(1)).toContainText(allKey);
  await page.getByRole('button', { name: 'Match Type' }).click();
  await page.getByRole('button', { name: 'Match Type' }).click();
  await expect(page.getByRole('columnheader', { name: 'Match Type' })).toHaveAttribute('aria-sort', 'descending');
  await expect(rows.nth(1)).toContainText(anyKey);
  await goTo(page, 'Flags');
  await goTo(page, 'Segments');
  await expect(page.getByRole('columnheader', { name: 'Match Type' })).toHaveAttribute('aria-sort', 'descending');
  await expect(rows.nth(1)).toContainText(anyKey);
});

test('flag metadata: added, edited and removed in the flag form, and kept by the changes that do not edit it', async ({
  page,
  server,
  namespace,
}) => {
  const key = unique('meta');
  await api(server, 'POST', flagPath(namespace), {
    key,
    name: 'With metadata',
    type: 'VARIANT_FLAG_TYPE',
    metadata: { team: 'growth', limits: { rps: 10 } },
  });
  const stored = async () => (await api<Flag>(server, 'GET', flagPath(namespace, key))).metadata;
  await open(page, server, `/namespaces/${namespace}/flags/${key}`);
  await expect(page.getByLabel('Metadata key 1')).toHaveValue('team');
  await expect(page.getByLabel('Metadata type 1')).toHaveValue('string');
  await expect(page.getByLabel('Metadata value 1')).toHaveValue('growth');
  await expect(page.getByLabel('Metadata key 2')).toHaveValue('limits');
  await expect(page.getByLabel('Metadata type 2')).toHaveValue('json');
  await expect(page.getByLabel('Metadata value 2')).toHaveValue('{"rps":10}');
  await expectAccessible(page);

  // A number that is not one, and a key used twice, hold the update back with their reasons.
  const update = page.getByRole('button', { name: 'Update' });
  await page.getByRole('button', { name: 'Add Metadata' }).click();
  await expect(page.getByText('Key is required')).toBeVisible();
  await page.getByLabel('Metadata key 3').fill('team');
  await expect(page.getByText('Key must be unique').first()).toBeVisible();
  await page.getByLabel('Metadata key 3').fill('tier');
  await page.getByLabel('Metadata type 3').selectOption('number');
  await page.getByLabel('Metadata value 3').fill('ten');
  await expect(page.getByText('Must be a number')).toBeVisible();
  await expect(update).toBeDisabled();
  await page.getByLabel('Metadata value 3').fill('3');
  await update.click();
  await expect(toast(page).success).toHaveText('Successfully updated flag');
  await expect.poll(stored).toEqual({ team: 'growth', limits: { rps: 10 }, tier: 3 });

  // The list's Evaluation switch changes the flag without its metadata: the metadata is kept.
  await goTo(page, 'Flags');
  await page.getByRole('switch', { name: `Enabled ${key}` }).click();
  await expect(toast(page).success).toHaveText('Successfully updated flag');
  await expect.poll(stored).toEqual({ team: 'growth', limits: { rps: 10 }, tier: 3 });

  await page.getByRole('link', { name: key, exact: true }).click();
  await expect(page.getByLabel('Metadata key 3')).toHaveValue('tier');
  await expect(page.getByLabel('Metadata type 3')).toHaveValue('number');
  await expect(page.getByLabel('Metadata value 3')).toHaveValue('3');
  await page.getByLabel('Metadata type 1').selectOption('boolean');
  await page.getByLabel('Metadata value 1').selectOption('true');
  await page.getByRole('button', { name: 'Remove metadata entry 2' }).click();
  await update.click();
  await expect(toast(page).success).toHaveText('Successfully updated flag');
  await expect.poll(stored).toEqual({ team: true, tier: 3 });

  // Removing every entry clears it.
  await goTo(page, 'Segments');
  await openFlag(page, key);
  await page.getByRole('button', { name: 'Remove metadata entry 2' }).click();
  await page.getByRole('button', { name: 'Remove metadata entry 1' }).click();
  await expect(page.getByText('No metadata.')).toBeVisible();
  await update.click();
  await expect(toast(page).success).toHaveText('Successfully updated flag');
  await expect.poll(stored).toBeUndefined();
  await goTo(page, 'Flags');
  await openFlag(page, key);
  await expect(page.getByText('No metadata.')).toBeVisible();

  // A new flag takes its metadata at creation.
  const created = unique('meta-new');
  await goTo(page, 'Flags');
  await page.getByRole('button', { name: 'New Flag' }).click();
  await page.getByLabel('Name', { exact: true }).fill(created);
  await page.getByRole('button', { name: 'Add Metadata' }).click();
  await page.getByLabel('Metadata key 1').fill('owner');
  await page.getByLabel('Metadata value 1').fill('ann');
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(toast(page).success).toHaveText('Successfully created flag');
  expect((await api<Flag>(server, 'GET', flagPath(namespace, created))).metadata).toEqual({ owner: 'ann' });
  await expect(page.getByLabel('Metadata value 1')).toHaveValue('ann');
});

test.describe('in a browser east of UTC', () => {
  test.use({ timezoneId: 'Asia/Kolkata' });

  test('times are local by default, as in Flipt 1.53 and later; UTC once chosen, on every page', async ({
    page,
    server,
    namespace,
  }) => {
    const key = unique('timed');
    const flag = await api<Flag>(server, 'POST', flagPath(namespace), { key, name: key, type: 'BOOLEAN_FLAG_TYPE' });
    const shown = (offsetMinutes: number) =>
      new Date(Date.parse(flag.createdAt) + offsetMinutes * 60_000).toISOString().slice(0, 19).replace('T', ' ');
    const local = shown(330);
    const utc = `${shown(0)} UTC`;

    await open(page, server, `/namespaces/${namespace}/flags`);
    const created = page.getByRole('row').filter({ hasText: key }).locator('time').first();
    await expect(created).toHaveText(local);
    await page.getByRole('link', { name: key, exact: true }).click();
    await expect(createdOnPage(page)).toHaveAttribute('title', local);

    await goTo(page, 'Settings');
    await expect(page.getByLabel('Timezone')).toHaveValue('local');
    await page.getByLabel('Timezone').selectOption('utc');
    await goTo(page, 'Flags');
    await expect(created).toHaveText(utc);
    await page.getByRole('link', { name: key, exact: true }).click();
    await expect(createdOnPage(page)).toHaveAttribute('title', utc);
    await page.reload();
    await expect(createdOnPage(page)).toHaveAttribute('title', utc);
  });
});

test('segments are picked and shown in rule and rollout rows by name with their key beside it, unnamed variants by key', async ({
  page,
  server,
  namespace,
}) => {
  const segment = unique('beta');
  await api<Segment>(server, 'POST', `/api/v1/namespaces/${namespace}/segments`, {
    key: segment,
    name: 'Beta testers',
    matchType: 'ALL_MATCH_TYPE',
  });
  const variantFlag = unique('colour');
  await api(server, 'POST', flagPath(namespace), { key: variantFlag, name: 'Colour', type: 'VARIANT_FLAG_TYPE' });
  await api<Variant>(server, 'POST', `${flagPath(namespace, variantFlag)}/variants`, { key: 'red', name: 'Red' });
  const booleanFlag = unique('beta-on');
  await api(server, 'POST', flagPath(namespace), { key: booleanFlag, name: 'Beta on', type: 'BOOLEAN_FLAG_TYPE' });

  // A variant created without a name in the console.
  await open(page, server, `/namespaces/${namespace}/flags/${variantFlag}`);
  await page.getByRole('button', { name: 'New Variant' }).click();
  const variantDialog = page.getByRole('dialog', { name: 'New Variant' });
  await variantDialog.getByLabel('Key').fill('blue');
  await variantDialog.getByRole('button', { name: 'Create' }).click();
  await expect(variantDialog).toBeHidden();

  // The rule form offers the segment by name and key, the variants by name or, unnamed, by key.
  await goTo(page, 'Segments');
  await openFlag(page, variantFlag, 'Rules');
  await page.getByRole('button', { name: 'New Rule' }).click();
  const rule = page.getByRole('dialog', { name: 'New Rule' });
  expect(await offered(page, rule, 'Segments')).toEqual([`Beta testers ${segment}`]);
  expect(await offered(page, rule, 'Variant')).toEqual(['Red red', 'blue']);
  await pick(rule, 'Segments', 'Beta testers');
  await expect(rule.getByRole('combobox', { name: 'Segments' })).toHaveText('Beta testers');
  await pick(rule, 'Variant', 'blue');
  await expect(rule.getByRole('combobox', { name: 'Variant' })).toHaveText('blue');
  await rule.getByRole('button', { name: 'Create' }).click();
  await expect(toast(page).success).toHaveText('Successfully created rule');
  await expect(page.getByRole('article', { name: 'Rule 1' })).toContainText('blue');
  // The rule's row names its segment too (Flipt 1.61's rule card shows the picker, by name).
  const ruleSegments = page.getByRole('article', { name: 'Rule 1' }).getByRole('paragraph').first();
  await expect(ruleSegments).toHaveText(`Beta testers ${segment}`);

  // The unnamed variant as the default, shown by its key after leaving and coming back.
  await pick(page.getByRole('form', { name: 'Default Rule' }), 'Default Variant', 'blue');
  await page.getByRole('form', { name: 'Default Rule' }).getByRole('button', { name: 'Update' }).click();
  await expect(toast(page).success).toHaveText('Successfully updated default variant');
  await goTo(page, 'Segments');
  await openFlag(page, variantFlag, 'Rules');
  await expect(
    page.getByRole('form', { name: 'Default Rule' }).getByRole('combobox', { name: 'Default Variant' }),
  ).toHaveText('blue');
  await expect(page.getByRole('article', { name: 'Rule 1' })).toContainText('blue');
  await expect(ruleSegments).toHaveText(`Beta testers ${segment}`);
  // The flag form's Default Variant too.
  await expect(page.getByRole('combobox', { name: 'Default Variant' }).first()).toHaveText('blue');

  // The rollout form: the segment by name, and by name again when the rollout is edited later.
  await openFlag(page, booleanFlag);
  await page.getByRole('button', { name: 'New Rollout' }).click();
  const rollout = page.getByRole('dialog', { name: 'New Rollout' });
  await rollout.getByRole('radio', { name: 'Segment' }).check();
  expect(await offered(page, rollout, 'Segments')).toEqual([`Beta testers ${segment}`]);
  await pick(rollout, 'Segments', 'Beta testers');
  await rollout.getByRole('button', { name: 'Create' }).click();
  await expect(toast(page).success).toHaveText('Successfully created rollout');
  await goTo(page, 'Segments');
  await openFlag(page, booleanFlag);
  await expect(page.getByRole('article', { name: 'Rollout 1' }).getByRole('paragraph').first()).toHaveText(
    `Beta testers ${segment}`,
  );
  await page.getByRole('button', { name: 'Edit rollout 1' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Rollout' });
  await expect(edit.getByRole('combobox', { name: 'Segments' })).toHaveText('Beta testers');
  await expectAccessible(page);
});
