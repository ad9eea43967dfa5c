import type { Flag, RolloutList, RuleList } from '../../domain/flipt/types.js';
import { expect, test, type RunningServer } from './fixtures.js';
import { api, expectAccessible, open, pick, toast, unique } from './console-support.js';

async function seedSegments(server: RunningServer, namespace: string, ...keys: string[]): Promise<void> {
  for (const key of keys)
    await api(server, 'POST', `/api/v1/namespaces/${namespace}/segments`, {
      key,
      name: key,
      matchType: 'ALL_MATCH_TYPE',
    });
}

async function variantFlag(server: RunningServer, namespace: string): Promise<Flag> {
  const key = unique('checkout');
  await api(server, 'POST', `/api/v1/namespaces/${namespace}/flags`, {
    key,
    name: 'Checkout',
    type: 'VARIANT_FLAG_TYPE',
    enabled: true,
  });
  for (const variant of ['red', 'green', 'blue']) {
    await api(server, 'POST', `/api/v1/namespaces/${namespace}/flags/${key}/variants`, { key: variant });
  }
  return api<Flag>(server, 'GET', `/api/v1/namespaces/${namespace}/flags/${key}`);
}

const rulesOf = (server: RunningServer, namespace: string, flagKey: string) =>
  api<RuleList>(server, 'GET', `/api/v1/namespaces/${namespace}/flags/${flagKey}/rules`);

test('rules: create multi-variate and single-variant rules, edit distributions, reorder by keyboard and drag, a refused reorder reverts, delete', async ({
  page,
  server,
  namespace,
}) => {
  const [first, second] = [unique('beta'), unique('staff')];
  await seedSegments(server, namespace, first, second);
  const flag = await variantFlag(server, namespace);
  const variantKey = (id: string) => flag.variants.find((variant) => variant.id === id)?.key;
  await open(page, server, `/namespaces/${namespace}/flags/${flag.key}/rules`);
  await expect(page.getByText('This flag has no rules.')).toBeVisible();

  // A multi-variate rule on two segments with AND, starting from an even split that must total 100%.
  await page.getByRole('button', { name: 'New Rule' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Rule' });
  await pick(dialog, 'Segments', first, second);
  await dialog.getByRole('radio', { name: /AND/ }).check();
  await dialog.getByRole('radio', { name: 'Multi-Variate' }).check();
  await expect(dialog.getByLabel('Percentage for red')).toHaveValue('33.34');
  await expect(dialog.getByLabel('Percentage for green')).toHaveValue('33.33');
  await expect(dialog.getByLabel('Percentage for blue')).toHaveValue('33.33');
  await dialog.getByLabel('Percentage for red').fill('20');
  await expect(dialog.getByText('Percentages must add up to 100%')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Create' })).toBeDisabled();
  await dialog.getByLabel('Percentage for red').fill('33.34');
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(toast(page).success).toHaveText('Successfully created rule');

  let rules = (await rulesOf(server, namespace, flag.key)).rules;
  expect(rules).toHaveLength(1);
  expect(rules[0]).toMatchObject({
    segmentKey: '',
    segmentKeys: [first, second].sort(),
    segmentOperator: 'AND_SEGMENT_OPERATOR',
    rank: 1,
  });
  expect(rules[0].distributions.map((d) => [variantKey(d.variantId), d.rollout])).toEqual([
    ['red', 33.34],
    ['green', 33.33],
    ['blue', 33.33],
  ]);

  // A single-variant rule on one segment: one distribution at 100%.
  await page.getByRole('button', { name: 'New Rule' }).click();
  await pick(dialog, 'Segments', second);
  await pick(dialog, 'Variant', 'blue');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('article', { name: 'Rule 2' })).toBeVisible();
  rules = (await rulesOf(server, namespace, flag.key)).rules;
  expect(rules[1]).toMatchObject({ segmentKey: second, segmentKeys: [], rank: 2 });
  expect(rules[1].distributions.map((d) => [variantKey(d.variantId), d.rollout])).toEqual([['blue', 100]]);

  // Edit the first rule's distributions in place.
  const rule1 = page.getByRole('article', { name: 'Rule 1' });
  await expect(rule1.getByText('AND')).toBeVisible();
  await rule1.getByLabel('Percentage for red').fill('50');
  await expect(rule1.getByText('Percentages must add up to 100%')).toBeVisible();
  await rule1.getByLabel('Percentage for green').fill('25');
  await rule1.getByLabel('Percentage for blue').fill('25');
  await rule1.getByRole('button', { name: 'Update' }).click();
  await expect(toast(page).success).toHaveText('Successfully updated rule');
  rules = (await rulesOf(server, namespace, flag.key)).rules;
  expect(rules[0].distributions.map((d) => d.rollout)).toEqual([50, 25, 25]);

  // Reorder from the keyboard: rule 2 moves up.
  const ids = rules.map((rule) => rule.id);
  await page.getByRole('button', { name: 'Move rule 2 up' }).focus();
  await page.keyboard.press('Enter');
  await expect(toast(page).success).toHaveText('Successfully reordered rules');
  await expect
    .poll(async () => (await rulesOf(server, namespace, flag.key)).rules.map((rule) => rule.id))
    .toEqual([ids[1], ids[0]]);
  await expect(page.getByRole('article', { name: 'Rule 1' }).getByText(second)).toBeVisible();

  // Reorder by dragging the second card onto the first.
  await page.getByRole('article', { name: 'Rule 2' }).dragTo(page.getByRole('article', { name: 'Rule 1' }));
  await expect.poll(async () => (await rulesOf(server, namespace, flag.key)).rules.map((rule) => rule.id)).toEqual(ids);

  // A reorder the server refuses: the list goes back to the stored order and the error shows.
  await page.route('**/rules/order', (route) =>
    route.fulfill({
      status: 400,
      contentType: 'application/json',
      body: JSON.stringify({ code: 3, message: 'reorder refused', details: [] }),
    }),
  );
  await page.getByRole('button', { name: 'Move rule 2 up' }).click();
  await expect(toast(page).error).toContainText('reorder refused');
  await expect(page.getByRole('article', { name: 'Rule 1' }).getByText('AND')).toBeVisible();
  expect((await rulesOf(server, namespace, flag.key)).rules.map((rule) => rule.id)).toEqual(ids);
  await page.unroute('**/rules/order');

  // Delete with confirmation; the remaining rule is renumbered.
  await page.getByRole('button', { name: 'Delete rule 1' }).click();
  await expect(page.getByRole('dialog', { name: 'Delete Rule' })).toContainText('This action cannot be undone.');
  await page.getByRole('dialog', { name: 'Delete Rule' }).getByRole('button', { name: 'Delete' }).click();
  await expect(toast(page).success).toHaveText('Successfully deleted rule');
  await expect(page.getByRole('article', { name: 'Rule 2' })).toHaveCount(0);
  rules = (await rulesOf(server, namespace, flag.key)).rules;
  expect(rules.map((rule) => [rule.id, rule.rank])).toEqual([[ids[1], 1]]);

  // The Default Rule sets the flag's default variant, as in Flipt's console.
  await expect(page.getByRole('heading', { name: 'Default Rule' })).toBeVisible();
  const defaults = page.getByRole('form', { name: 'Default Rule' });
  await pick(defaults, 'Default Variant', 'green');
  await defaults.getByRole('button', { name: 'Update' }).click();
  await expect(toast(page).success).toHaveText('Successfully updated default variant');
  await expect
    .poll(
      async () =>
        (await api<Flag>(server, 'GET', `/api/v1/namespaces/${namespace}/flags/${flag.key}`)).defaultVariant?.key,
    )
    .toBe('green');
  await expect(defaults.getByRole('button', { name: 'Update' })).toBeDisabled();
  await pick(defaults, 'Default Variant', 'None');
  await defaults.getByRole('button', { name: 'Update' }).click();
  await expect(toast(page).success).toHaveText('Successfully removed default variant');
  await expect
    .poll(
      async () =>
        (await api<Flag>(server, 'GET', `/api/v1/namespaces/${namespace}/flags/${flag.key}`)).defaultVariant?.key,
    )
    .toBeUndefined();
  await expectAccessible(page);
});

test('rollouts: threshold and segment rollouts, edit, reorder, a refused reorder reverts, default value, delete', async ({
  page,
  server,
  namespace,
}) => {
  const [first, second] = [unique('internal'), unique('eu')];
  await seedSegments(server, namespace, first, second);
  const flagKey = unique('new-nav');
  await api(server, 'POST', `/api/v1/namespaces/${namespace}/flags`, {
    key: flagKey,
    name: 'New nav',
    type: 'BOOLEAN_FLAG_TYPE',
    enabled: false,
  });
  const rolloutsOf = () =>
    api<RolloutList>(server, 'GET', `/api/v1/namespaces/${namespace}/flags/${flagKey}/rollouts`).then(
      (list) => list.rules,
    );
  await open(page, server, `/namespaces/${namespace}/flags/${flagKey}`);
  await expect(page.getByRole('heading', { name: 'Rollouts' })).toBeVisible();

  // Threshold rollout: 30% get false.
  await page.getByRole('button', { name: 'New Rollout' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Rollout' });
  await dialog.getByLabel('Percentage').fill('130');
  await expect(dialog.getByText('Percentage must be between 0 and 100')).toBeVisible();
  await dialog.getByLabel('Percentage').fill('30');
  await dialog.getByLabel('Value').selectOption('false');
  await dialog.getByLabel('Description').fill('Slow start');
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(toast(page).success).toHaveText('Successfully created rollout');

  // Segment rollout: either segment gets true.
  await page.getByRole('button', { name: 'New Rollout' }).click();
  await dialog.getByRole('radio', { name: 'Segment' }).check();
  await pick(dialog, 'Segments', first, second);
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('article', { name: 'Rollout 2' })).toContainText([first, second].sort().join(' OR '));

  let rollouts = await rolloutsOf();
  expect(rollouts.map((r) => [r.type, r.rank])).toEqual([
    ['THRESHOLD_ROLLOUT_TYPE', 1],
    ['SEGMENT_ROLLOUT_TYPE', 2],
  ]);
  expect(rollouts[0]).toMatchObject({ description: 'Slow start', threshold: { percentage: 30, value: false } });
  expect(rollouts[1].segment).toMatchObject({
    segmentKeys: [first, second].sort(),
    segmentOperator: 'OR_SEGMENT_OPERATOR',
    value: true,
  });

  // Edit the threshold: the type cannot change.
  await page.getByRole('button', { name: 'Edit rollout 1' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Rollout' });
  await expect(edit.getByRole('radio', { name: 'Segment' })).toHaveCount(0);
  await edit.getByLabel('Percentage').fill('45');
  await edit.getByRole('button', { name: 'Update' }).click();
  await expect(toast(page).success).toHaveText('Successfully updated rollout');
  expect((await rolloutsOf())[0].threshold).toEqual({ percentage: 45, value: false });

  // Reorder, then a refused reorder that reverts.
  const ids = rollouts.map((r) => r.id);
  await page.getByRole('button', { name: 'Move rollout 2 up' }).click();
  await expect(toast(page).success).toHaveText('Successfully reordered rollouts');
  await expect.poll(async () => (await rolloutsOf()).map((r) => r.id)).toEqual([ids[1], ids[0]]);
  await page.route('**/rollouts/order', (route) =>
    route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({ code: 13, message: 'storage unavailable', details: [] }),
    }),
  );
  await page.getByRole('article', { name: 'Rollout 2' }).dragTo(page.getByRole('article', { name: 'Rollout 1' }));
  await expect(toast(page).error).toContainText('storage unavailable');
  await expect(page.getByRole('article', { name: 'Rollout 1' })).toContainText('Segment');
  await page.unroute('**/rollouts/order');

  // The default value is the flag's enabled state.
  await expect(page.getByRole('heading', { name: 'Default Rollout' })).toBeVisible();
  const defaults = page.getByRole('form', { name: 'Default Rollout' });
  await defaults.getByLabel('Value').selectOption('true');
  await defaults.getByRole('button', { name: 'Update' }).click();
  await expect(toast(page).success).toHaveText('Successfully updated default rollout');
  expect((await api<Flag>(server, 'GET', `/api/v1/namespaces/${namespace}/flags/${flagKey}`)).enabled).toBe(true);

  // Delete.
  await page.getByRole('button', { name: 'Delete rollout 2' }).click();
  await page.getByRole('dialog', { name: 'Delete Rollout' }).getByRole('button', { name: 'Delete' }).click();
  await expect(toast(page).success).toHaveText('Successfully deleted rollout');
  await expect(page.getByRole('article', { name: 'Rollout 2' })).toHaveCount(0);
  rollouts = await rolloutsOf();
  expect(rollouts.map((r) => [r.id, r.rank])).toEqual([[ids[1], 1]]);
  await expectAccessible(page);
});
