import type { Segment } from '../../domain/flipt/types.js';
import { expect, test, type RunningServer } from './fixtures.js';
import { api, expectAccessible, open, pick, toast, unique } from './console-support.js';
import type { Page } from '@playwright/test';

async function createSegment(server: RunningServer, namespace: string): Promise<string> {
  const key = unique('segment');
  await api(server, 'POST', `/api/v1/namespaces/${namespace}/segments`, {
    key,
    name: 'Beta users',
    matchType: 'ALL_MATCH_TYPE',
  });
  return key;
}

async function getSegment(server: RunningServer, key: string, namespace: string): Promise<Segment> {
  return api<Segment>(server, 'GET', `/api/v1/namespaces/${namespace}/segments/${key}`);
}

function slideOver(page: Page, title: 'New Constraint' | 'Edit Constraint') {
  return page.getByRole('dialog', { name: title });
}

test('create a segment: key follows the name, match type labels, then update it', async ({
  page,
  server,
  namespace,
}) => {
  const name = unique('Beta Testers');
  const key = name.replace(/\s/g, '-');
  await open(page, server, `/namespaces/${namespace}/segments/new`);
  await expect(page.getByRole('heading', { name: 'New Segment' })).toBeVisible();
  await page.getByLabel('Name', { exact: true }).fill(name);
  await expect(page.getByRole('textbox', { name: 'Key' })).toHaveValue(key);
  await expect(page.getByText('All constraints must match')).toBeVisible();
  await expect(page.getByText('At least one constraints must match')).toBeVisible();
  await page.getByRole('radio', { name: /^Any/ }).check();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(toast(page).success).toHaveText('Successfully created segment');
  await expect(page).toHaveURL(new RegExp(`#/namespaces/${namespace}/segments/${key}$`));
  await expect(page.getByRole('heading', { name })).toBeVisible();
  expect((await getSegment(server, key, namespace)).matchType).toBe('ANY_MATCH_TYPE');
  await expect(page.getByRole('textbox', { name: 'Key' })).toBeDisabled();

  await page.getByRole('radio', { name: /^All/ }).check();
  await page.getByRole('button', { name: 'Update' }).click();
  await expect(toast(page).success).toHaveText('Successfully updated segment');
  await expect(page).toHaveURL(new RegExp(`/segments/${key}$`));
  expect((await getSegment(server, key, namespace)).matchType).toBe('ALL_MATCH_TYPE');
  await expectAccessible(page);

  await open(page, server, `/namespaces/${namespace}/segments`);
  await expect(page.getByRole('link', { name: key })).toBeVisible();
  await expectAccessible(page);
});

test('constraints of every type with their operators, validation messages, edit and delete', async ({
  page,
  server,
  namespace,
}) => {
  const key = await createSegment(server, namespace);
  await open(page, server, `/namespaces/${namespace}/segments/${key}`);
  await expect(page.getByText('This segment has no constraints.')).toBeVisible();

  // STRING: every operator, a required value, no value for empty.
  await page.getByRole('button', { name: 'New Constraint' }).click();
  let form = slideOver(page, 'New Constraint');
  await expect(form.getByLabel('Operator').locator('option')).toHaveText([
    '==',
    '!=',
    'is empty',
    'is not empty',
    'has prefix',
    'has suffix',
    'contains',
    'does not contain',
    'is one of',
    'is not one of',
  ]);
  await form.getByLabel('Property').fill('email');
  await form.getByLabel('Value').fill('x');
  await form.getByLabel('Value').fill('');
  await expect(form.getByText('Value is required')).toBeVisible();
  await expect(form.getByRole('button', { name: 'Create' })).toBeDisabled();
  await form.getByLabel('Operator').selectOption('suffix');
  await form.getByLabel('Value').fill('@example.com');
  await expectAccessible(page);
  await form.getByRole('button', { name: 'Create' }).click();
  await expect(form).toBeHidden();
  await expect(toast(page).success).toHaveText('Successfully created constraint');
  await expect(page.getByRole('row', { name: /email String has suffix @example.com/ })).toBeVisible();

  // NUMBER with a list: numbers only, no duplicates, stored as a JSON array string.
  await page.getByRole('button', { name: 'New Constraint' }).click();
  form = slideOver(page, 'New Constraint');
  await form.getByLabel('Property').fill('age');
  await form.getByLabel('Type').selectOption({ label: 'Number' });
  await expect(form.getByLabel('Operator').locator('option')).toHaveText([
    '==',
    '!=',
    '>',
    '>=',
    '<',
    '<=',
    'is present',
    'is not present',
    'is one of',
    'is not one of',
  ]);
  await form.getByLabel('Operator').selectOption('isoneof');
  for (const value of ['18', '21', '18', '30', '40', '50', '60']) {
    await form.getByLabel('Value').fill(value);
    await form.getByLabel('Value').press('Enter');
  }
  await expect(form.locator('.chip')).toHaveCount(5);
  await form.getByRole('button', { name: '+1 more' }).click();
  await expect(form.locator('.chip')).toHaveCount(6);
  await form.getByRole('button', { name: 'Show fewer' }).click();
  await expect(form.locator('.chip')).toHaveCount(5);
  await form.getByRole('button', { name: 'Create' }).click();
  await expect(form).toBeHidden();
  await expect(toast(page).success).toHaveText('Successfully created constraint');

  // BOOLEAN starts at 'true' and takes no value.
  await page.getByRole('button', { name: 'New Constraint' }).click();
  form = slideOver(page, 'New Constraint');
  await form.getByLabel('Property').fill('beta');
  await form.getByLabel('Type').selectOption({ label: 'Boolean' });
  await expect(form.getByLabel('Operator')).toHaveValue('true');
  await expect(form.getByLabel('Operator').locator('option')).toHaveText([
    'true',
    'false',
    'is present',
    'is not present',
  ]);
  await expect(form.getByLabel('Value')).toHaveCount(0);
  await form.getByRole('button', { name: 'Create' }).click();
  await expect(form).toBeHidden();
  await expect(toast(page).success).toHaveText('Successfully created constraint');

  // DATETIME from a date and an optional time, in the browser's timezone by default.
  await page.getByRole('button', { name: 'New Constraint' }).click();
  form = slideOver(page, 'New Constraint');
  await form.getByLabel('Property').fill('signedUp');
  await form.getByLabel('Type').selectOption({ label: 'DateTime' });
  await expect(form.getByLabel('Operator').locator('option')).toHaveText([
    '==',
    '!=',
    'is after',
    'is after or at',
    'is before',
    'is before or at',
    'is present',
    'is not present',
  ]);
  await form.getByLabel('Operator').selectOption('gt');
  await form.getByLabel('Date').fill('2024-03-01');
  await form.getByLabel(/^Time/).fill('13:45');
  await form.getByRole('button', { name: 'Create' }).click();
  await expect(form).toBeHidden();
  await expect(toast(page).success).toHaveText('Successfully created constraint');

  // ENTITY_ID fixes the property and clears it on leaving the type.
  await page.getByRole('button', { name: 'New Constraint' }).click();
  form = slideOver(page, 'New Constraint');
  await form.getByLabel('Type').selectOption({ label: 'Entity' });
  await expect(form.getByLabel('Property')).toHaveValue('entityId');
  await expect(form.getByLabel('Property')).toBeDisabled();
  await expect(form.getByLabel('Operator').locator('option')).toHaveText([
    '==',
    '!=',
    'contains',
    'does not contain',
    'is one of',
    'is not one of',
  ]);
  await form.getByLabel('Type').selectOption({ label: 'String' });
  await expect(form.getByLabel('Property')).toHaveValue('');
  await expect(form.getByLabel('Operator')).toHaveValue('eq');
  await form.getByLabel('Type').selectOption({ label: 'Entity' });
  await form.getByLabel('Operator').selectOption('isnotoneof');
  await form.getByLabel('Value').fill('user-1');
  await form.getByLabel('Value').press('Enter');
  await form.getByLabel('Value').fill('  ');
  await form.getByLabel('Value').press('Enter');
  await expect(form.locator('.chip')).toHaveCount(1);
  await form.getByRole('button', { name: 'Create' }).click();
  await expect(form).toBeHidden();
  await expect(toast(page).success).toHaveText('Successfully created constraint');

  const stored = (await getSegment(server, key, namespace)).constraints.map(({ property, type, operator, value }) => ({
    property,
    type,
    operator,
    value,
  }));
  const signedUp = await page.evaluate(() => new Date('2024-03-01T13:45').toISOString().replace('.000', ''));
  expect(stored).toEqual([
    { property: 'email', type: 'STRING_COMPARISON_TYPE', operator: 'suffix', value: '@example.com' },
    { property: 'age', type: 'NUMBER_COMPARISON_TYPE', operator: 'isoneof', value: '[18,21,30,40,50,60]' },
    { property: 'beta', type: 'BOOLEAN_COMPARISON_TYPE', operator: 'true', value: '' },
    { property: 'signedUp', type: 'DATETIME_COMPARISON_TYPE', operator: 'gt', value: signedUp },
    { property: 'entityId', type: 'ENTITY_ID_COMPARISON_TYPE', operator: 'isnotoneof', value: '["user-1"]' },
  ]);
  await expect(page.getByRole('row', { name: /signedUp DateTime is after/ })).toBeVisible();
  await expect(page.getByRole('row', { name: /age Number is one of/ }).locator('.chip')).toHaveCount(5);
  await expectAccessible(page);

  // Edit shows the stored value and saves the change.
  await page.getByRole('button', { name: 'Edit email' }).click();
  form = slideOver(page, 'Edit Constraint');
  await expect(form.getByLabel('Value')).toHaveValue('@example.com');
  await form.getByLabel('Description').fill('Company accounts');
  await form.getByRole('button', { name: 'Update' }).click();
  await expect(form).toBeHidden();
  await expect(toast(page).success).toHaveText('Successfully updated constraint');
  await expect(page.getByRole('cell', { name: 'Company accounts' })).toBeVisible();

  await page.getByRole('button', { name: 'Delete beta' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete Constraint' });
  await expect(confirm).toContainText('Are you sure you want to delete the constraint for beta?');
  await expect(confirm).toContainText('This action cannot be undone.');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(toast(page).success).toHaveText('Successfully deleted constraint');
  await expect(page.getByRole('row', { name: /beta Boolean/ })).toBeHidden();
  expect((await getSegment(server, key, namespace)).constraints).toHaveLength(4);
});

test('the datetime of a constraint follows the local timezone preference', async ({ page, server, namespace }) => {
  const key = await createSegment(server, namespace);
  await page.addInitScript(() =>
    localStorage.setItem('preferences', JSON.stringify({ state: { timezone: 'local' }, version: 0 })),
  );
  await open(page, server, `/namespaces/${namespace}/segments/${key}`);
  await page.getByRole('button', { name: 'New Constraint' }).click();
  const form = slideOver(page, 'New Constraint');
  await form.getByLabel('Property').fill('at');
  await form.getByLabel('Type').selectOption({ label: 'DateTime' });
  await form.getByLabel('Date').fill('2024-03-01');
  await expect(form.getByLabel('Time (local)')).toBeVisible();
  await form.getByRole('button', { name: 'Create' }).click();
  await expect(form).toBeHidden();
  await expect(toast(page).success).toHaveText('Successfully created constraint');
  const expected = await page.evaluate(() => new Date('2024-03-01T00:00').toISOString().replace('.000', ''));
  expect((await getSegment(server, key, namespace)).constraints[0].value).toBe(expected);
});

test('copy a segment with its constraints to another namespace, then delete it', async ({
  page,
  server,
  namespace,
}) => {
  const target = unique('copy-target');
  await api(server, 'POST', '/api/v1/namespaces', { key: target, name: target });
  const key = await createSegment(server, namespace);
  await api(server, 'POST', `/api/v1/namespaces/${namespace}/segments/${key}/constraints`, {
    property: 'plan',
    type: 'STRING_COMPARISON_TYPE',
    operator: 'eq',
    value: 'pro',
  });
  await open(page, server, `/namespaces/${namespace}/segments/${key}`);
  await page.getByRole('button', { name: 'Actions' }).click();
  await page.getByRole('menuitem', { name: 'Copy to Namespace' }).click();
  const dialog = page.getByRole('dialog', { name: 'Copy Segment' });
  await pick(dialog, 'Namespace', target);
  await dialog.getByRole('button', { name: 'Copy' }).click();
  await expect(toast(page).success).toHaveText('Successfully copied segment');
  await expect(dialog).toBeHidden();
  const copy = await getSegment(server, key, target);
  expect(copy.constraints.map(({ property, value }) => [property, value])).toEqual([['plan', 'pro']]);

  await page.getByRole('button', { name: 'Actions' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete Segment' });
  await expect(confirm).toContainText(`Are you sure you want to delete the segment ${key}?`);
  await expect(confirm).toContainText('This action cannot be undone.');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(toast(page).success).toHaveText('Successfully deleted segment');
  await expect(page).toHaveURL(new RegExp(`#/namespaces/${namespace}/segments$`));
  await expect(page.getByRole('link', { name: key, exact: true })).toHaveCount(0);
});
