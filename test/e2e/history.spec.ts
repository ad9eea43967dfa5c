import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Flag, Rule, RuleList } from '../../domain/flipt/types.js';
import { expect, startServer, test, type RunningServer } from './fixtures.js';
import { expectAccessible, open, pick, toast, unique } from './console-support.js';

const BOOTSTRAP = 'history-e2e-bootstrap';
const ENTITIES = Array.from({ length: 40 }, (_, i) => `user-${i}`);

let server: RunningServer;
let folder: string;

// Token authentication required: the operator's browser and the other actor each hold a token, so
// each change carries the name of the token that made it.
test.beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'ensign-history-'));
  const config = join(folder, 'config.yml');
  writeFileSync(
    config,
    `authentication:\n  required: true\n  methods:\n    token:\n      enabled: true\n      bootstrap:\n        token: ${BOOTSTRAP}\n`,
  );
  server = await startServer(['--config', config]);
});

test.afterAll(async () => {
  await server?.stop();
  rmSync(folder, { recursive: true, force: true });
});

async function withToken<T>(token: string, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

/** The set-up and the checks call the API with the bootstrap token. */
const api = <T = unknown>(method: string, path: string, body?: unknown) => withToken<T>(BOOTSTRAP, method, path, body);

const newToken = async (name: string) =>
  (await api<{ clientToken: string }>('POST', '/auth/v1/method/token', { name, description: 'history e2e' }))
    .clientToken;

/** Each entity's answer from POST /evaluate/v1/variant: what an SDK would see. */
async function answers(namespace: string, flagKey: string) {
  const result: Record<string, string> = {};
  for (const entityId of ENTITIES) {
    const answer = await api<{ match: boolean; reason: string; variantKey: string; segmentKeys: string[] }>(
      'POST',
      '/evaluate/v1/variant',
      { namespaceKey: namespace, flagKey, entityId, context: {} },
    );
    result[entityId] = `${answer.match} ${answer.reason} ${answer.variantKey} ${answer.segmentKeys.join(',')}`;
  }
  return result;
}

const rulesOf = async (namespace: string, flagKey: string): Promise<Rule[]> =>
  (await api<RuleList>('GET', `/api/v1/namespaces/${namespace}/flags/${flagKey}/rules`)).rules;

test("a flag's History shows the console's and a token's changes with their diffs; reverting the first restores the rules exactly", async ({
  page,
}) => {
  const namespace = unique('history');
  const base = `/api/v1/namespaces/${namespace}`;
  await api('POST', '/api/v1/namespaces', { key: namespace, name: namespace });
  for (const key of ['everyone', 'staff'])
    await api('POST', `${base}/segments`, { key, name: key, matchType: 'ALL_MATCH_TYPE' });
  const flagKey = 'checkout';
  await api('POST', `${base}/flags`, { key: flagKey, name: 'Checkout', type: 'VARIANT_FLAG_TYPE', enabled: true });
  for (const key of ['red', 'green', 'blue']) await api('POST', `${base}/flags/${flagKey}/variants`, { key });
  const flag = await api<Flag>('GET', `${base}/flags/${flagKey}`);
  const variantId = (key: string) => flag.variants.find((variant) => variant.key === key)!.id;
  const rule = await api<Rule>('POST', `${base}/flags/${flagKey}/rules`, { segmentKey: 'everyone', rank: 1 });
  for (const key of ['red', 'green'])
    await api('POST', `${base}/flags/${flagKey}/rules/${rule.id}/distributions`, {
      variantId: variantId(key),
      rollout: 50,
    });
  const rulesBefore = await rulesOf(namespace, flagKey);
  const answersBefore = await answers(namespace, flagKey);
  expect(new Set(Object.values(answersBefore)).size).toBe(2);

  // The operator, in the console: rule 1 moves to 20/80, then a second rule serves blue to staff.
  await page.setExtraHTTPHeaders({ authorization: `Bearer ${await newToken('operator')}` });
  await open(page, server, `/namespaces/${namespace}/flags/${flagKey}/rules`);
  const rule1 = page.getByRole('article', { name: 'Rule 1' });
  await rule1.getByLabel('Percentage for red').fill('20');
  await rule1.getByLabel('Percentage for green').fill('80');
  await rule1.getByRole('button', { name: 'Update' }).click();
  await expect(toast(page).success).toHaveText('Successfully updated rule');
  await page.getByRole('button', { name: 'New Rule' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Rule' });
  await pick(dialog, 'Segments', 'staff');
  await pick(dialog, 'Variant', 'blue');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('article', { name: 'Rule 2' })).toBeVisible();
  expect(await answers(namespace, flagKey)).not.toEqual(answersBefore);

  // Another actor turns the flag off through the API with a token of its own.
  await withToken(await newToken('release-bot'), 'PUT', `${base}/flags/${flagKey}`, {
    key: flagKey,
    name: 'Checkout',
    enabled: false,
  });

  // The flag's History: newest first, each with its actor and an operator's diff.
  await page.getByRole('navigation', { name: 'Flag' }).getByRole('link', { name: 'History' }).click();
  const changes = page.getByRole('list', { name: 'Changes' });
  const turnedOff = changes.getByRole('article', { name: 'flag updated by token release-bot' });
  await expect(turnedOff).toBeVisible();
  await expect(turnedOff.getByRole('row', { name: /Enabled/ })).toHaveText(/Enabled\s*on\s*off/);
  const ruleCreated = changes.getByRole('article', { name: 'rule created by token operator' });
  await expect(ruleCreated.getByRole('row', { name: /Rule on staff/ })).toContainText('#2: no variant');
  const blueAdded = changes.getByRole('article', { name: 'distribution created by token operator' }).first();
  await expect(blueAdded.getByRole('row', { name: /Rule on staff/ })).toContainText('#2: blue 100%');
  // The console saves a rule's distributions one PUT each: the first sets red, the second green.
  const updates = changes.getByRole('article', { name: 'distribution updated by token operator' });
  await expect(updates).toHaveCount(2);
  const firstChange = updates.last();
  await expect(firstChange.getByRole('row', { name: /Rule on everyone/ })).toHaveText(
    /#1: red 50%, green 50%\s*#1: red 20%, green 50%/,
  );
  await expect(updates.first().getByRole('row', { name: /Rule on everyone/ })).toHaveText(
    /#1: red 20%, green 50%\s*#1: red 20%, green 80%/,
  );
  await expectAccessible(page);

  // Revert the operator's first change: the preview shows what goes back, then the rules are as before.
  await firstChange.getByRole('button', { name: /^Revert change/ }).click();
  const confirm = page.getByRole('dialog', { name: 'Revert Change' });
  await expect(confirm.getByRole('row', { name: /Enabled/ })).toHaveText(/Enabled\s*off\s*on/);
  await expect(confirm.getByRole('row', { name: /Rule on staff/ })).toContainText('#2: blue 100%');
  await expectAccessible(page);
  await confirm.getByRole('button', { name: 'Revert' }).click();
  await expect(toast(page).success).toHaveText('Successfully reverted change');
  await expect(changes.getByRole('article', { name: 'flag updated by token operator' })).toContainText(
    'revert of change',
  );

  expect(await rulesOf(namespace, flagKey)).toEqual(rulesBefore);
  expect(await answers(namespace, flagKey)).toEqual(answersBefore);
  // The console's Rules tab shows the restored rules (the revert invalidated what it had cached).
  await page.getByRole('navigation', { name: 'Flag' }).getByRole('link', { name: 'Rules' }).click();
  await expect(page.getByRole('article', { name: 'Rule 2' })).toHaveCount(0);
  await expect(page.getByRole('article', { name: 'Rule 1' }).getByLabel('Percentage for red')).toHaveValue('50');
  // The flag's tab leads to the namespace's History, where the revert is the newest change.
  await page.getByRole('navigation', { name: 'Flag' }).getByRole('link', { name: 'History' }).click();
  await page.getByRole('link', { name: 'Every change in this namespace' }).click();
  await expect(page.getByRole('heading', { name: 'History' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Changes' }).getByRole('article').first()).toContainText(
    `flag ${flagKey}`,
  );
});

test("a segment's History and the namespace's History page, filtered by entity and actor", async ({ page }) => {
  const namespace = unique('history');
  const base = `/api/v1/namespaces/${namespace}`;
  await api('POST', '/api/v1/namespaces', { key: namespace, name: namespace });
  await api('POST', `${base}/segments`, { key: 'pro', name: 'Pro', matchType: 'ALL_MATCH_TYPE' });
  const bot = await newToken('segment-bot');
  await withToken(bot, 'POST', `${base}/segments/pro/constraints`, {
    type: 'STRING_COMPARISON_TYPE',
    property: 'plan',
    operator: 'eq',
    value: 'pro',
  });
  await api('POST', `${base}/flags`, { key: 'banner', name: 'Banner', type: 'BOOLEAN_FLAG_TYPE', enabled: false });
  await page.setExtraHTTPHeaders({ authorization: `Bearer ${await newToken('viewer')}` });

  await open(page, server, `/namespaces/${namespace}/segments/pro`);
  await page.getByText('History', { exact: true }).click();
  const constraint = page.getByRole('article', { name: 'constraint created by token segment-bot' });
  await expect(constraint.getByRole('row', { name: /Constraint on plan/ })).toContainText('plan == pro');

  await open(page, server, `/namespaces/${namespace}/history`);
  await expect(page.getByRole('heading', { name: 'History' })).toBeVisible();
  const changes = page.getByRole('list', { name: 'Changes' });
  await expect(changes.getByRole('article')).toHaveCount(4);
  await expect(changes.getByRole('article', { name: 'flag created by token initial_bootstrap_token' })).toContainText(
    'flag banner',
  );
  const filters = page.getByRole('form', { name: 'Filter changes' });
  await filters.getByLabel('Actor').fill('token segment-bot');
  await filters.getByRole('button', { name: 'Apply' }).click();
  await expect(changes.getByRole('article')).toHaveCount(1);
  await filters.getByRole('button', { name: 'Clear' }).click();
  await filters.getByLabel('Entity').selectOption('flag');
  await filters.getByRole('button', { name: 'Apply' }).click();
  await expect(changes.getByRole('article')).toHaveCount(1);
  await expect(changes.getByRole('article', { name: 'flag created by token initial_bootstrap_token' })).toBeVisible();
  await expectAccessible(page);
});

test('in read-only mode the History shows the changes and refuses Revert in place, with the reason', async ({
  page,
}) => {
  const dir = mkdtempSync(join(tmpdir(), 'ensign-history-ro-'));
  const db = `file:${join(dir, 'ensign.db')}`;
  const config = join(dir, 'config.yml');
  writeFileSync(config, 'storage:\n  type: database\n  read_only: true\n');
  let readOnly: RunningServer | undefined;
  try {
    const writable = await startServer(['--db', db]);
    await fetch(`${writable.url}/api/v1/namespaces/default/flags`, {
      method: 'POST',
      body: JSON.stringify({ key: 'frozen', name: 'Frozen', type: 'BOOLEAN_FLAG_TYPE', enabled: true }),
    });
    await writable.stop();
    readOnly = await startServer(['--db', db, '--config', config]);
    await open(page, readOnly, '/namespaces/default/flags/frozen/history');
    const revert = page.getByRole('article', { name: 'flag created by anonymous' }).getByRole('button', {
      name: /^Revert change/,
    });
    await expect(revert).toHaveAttribute('aria-disabled', 'true');
    await expect(revert).toHaveAccessibleDescription('Not allowed in Read-Only mode');
    await revert.click({ force: true });
    await expect(page.getByRole('dialog', { name: 'Revert Change' })).toHaveCount(0);
  } finally {
    await readOnly?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
