import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Page } from '@playwright/test';
import type { Flag, Rule } from '../../domain/flipt/types.js';
import { expect, test, type RunningServer } from './fixtures.js';
import { api, expectAccessible, open, unique } from './console-support.js';

const ns = (namespace: string) => `/api/v1/namespaces/${namespace}`;

/** A variant flag whose one rule sends segment (plan == pro AND age >= 18) to the variant blue. */
async function createVariantFlag(
  server: RunningServer,
  namespace: string,
): Promise<{ flagKey: string; segmentKey: string }> {
  const segmentKey = unique('adults');
  await api(server, 'POST', `${ns(namespace)}/segments`, {
    key: segmentKey,
    name: 'Adult pros',
    matchType: 'ALL_MATCH_TYPE',
  });
  await api(server, 'POST', `${ns(namespace)}/segments/${segmentKey}/constraints`, {
    type: 'STRING_COMPARISON_TYPE',
    property: 'plan',
    operator: 'eq',
    value: 'pro',
  });
  await api(server, 'POST', `${ns(namespace)}/segments/${segmentKey}/constraints`, {
    type: 'NUMBER_COMPARISON_TYPE',
    property: 'age',
    operator: 'gte',
    value: '18',
  });
  const flagKey = unique('colour');
  await api(server, 'POST', `${ns(namespace)}/flags`, {
    key: flagKey,
    name: 'Colour',
    type: 'VARIANT_FLAG_TYPE',
    enabled: true,
  });
  await api(server, 'POST', `${ns(namespace)}/flags/${flagKey}/variants`, { key: 'blue', name: 'Blue' });
  const flag = await api<Flag>(server, 'GET', `${ns(namespace)}/flags/${flagKey}`);
  const rule = await api<Rule>(server, 'POST', `${ns(namespace)}/flags/${flagKey}/rules`, { segmentKey, rank: 1 });
  await api(server, 'POST', `${ns(namespace)}/flags/${flagKey}/rules/${rule.id}/distributions`, {
    variantId: flag.variants[0].id,
    rollout: 100,
  });
  return { flagKey, segmentKey };
}

/** A disabled boolean flag whose threshold rollout turns it on for every entity. */
async function createBooleanFlag(server: RunningServer, namespace: string): Promise<string> {
  const flagKey = unique('switch');
  await api(server, 'POST', `${ns(namespace)}/flags`, {
    key: flagKey,
    name: 'Switch',
    type: 'BOOLEAN_FLAG_TYPE',
    enabled: false,
  });
  await api(server, 'POST', `${ns(namespace)}/flags/${flagKey}/rollouts`, {
    rank: 1,
    threshold: { percentage: 100, value: true },
  });
  return flagKey;
}

async function responseOf(page: Page): Promise<Record<string, unknown>> {
  const region = page.getByRole('region', { name: 'Response' });
  return JSON.parse((await region.locator('pre').textContent())!) as Record<string, unknown>;
}

test('evaluate a variant flag: the response, the explanation of a failing and a matching constraint, and the context rule', async ({
  page,
  server,
  namespace,
}) => {
  const { flagKey, segmentKey } = await createVariantFlag(server, namespace);
  await open(page, server, `/namespaces/${namespace}/console`);
  await expect(page.getByRole('heading', { name: 'Console' })).toBeVisible();

  const flagInput = page.getByRole('combobox', { name: 'Flag' });
  await flagInput.fill(flagKey.slice(0, -2));
  // The suggestions are the first flags whose key or name holds what is typed.
  await expect(page.locator(`datalist option[value="${flagKey}"]`)).toHaveCount(1);
  await expect(page.getByText('No flag with this key')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Evaluate' })).toBeDisabled();
  await flagInput.fill(flagKey);
  await expect(page.getByText('Variant flag: Colour')).toBeVisible();

  const context = page.getByLabel('Context');
  await context.fill('{"age": 30}');
  await expect(page.getByText('Must be valid context value')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Evaluate' })).toBeDisabled();
  await context.fill('not json');
  await expect(page.getByText('Must be valid context value')).toBeVisible();
  await context.fill('');
  await expect(page.getByText('Must be valid context value')).toBeHidden();

  await page.getByLabel('Entity ID').fill('user-1');
  await context.fill('{"plan": "pro", "age": "12"}');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Evaluate' }).click();
  await expect(page.getByRole('heading', { name: 'Response' })).toBeVisible();
  expect(await responseOf(page)).toMatchObject({
    flagKey,
    match: false,
    variantKey: '',
    reason: 'UNKNOWN_EVALUATION_REASON',
    segmentKeys: [],
  });

  const explanation = page.getByRole('region', { name: 'Explanation' });
  await expect(explanation.getByText("Matches the server's answer.")).toBeVisible();
  await expect(explanation.getByText(/Rule 1: any segment \(OR\)\s*not matched/)).toBeVisible();
  const constraints = explanation.getByRole('table', { name: `Constraints of segment ${segmentKey}` });
  await expect(constraints.getByRole('row')).toHaveText([
    /Property\s*Operator\s*Expected\s*Context value\s*Result/,
    /plan\s*==\s*pro\s*pro\s*matched/,
    /age\s*>=\s*18\s*12\s*not matched/,
  ]);
  await expect(explanation.getByText("Nothing matched: the flag's default applies.")).toBeVisible();
  await expectAccessible(page);

  await context.fill('{"plan": "pro", "age": "30"}');
  await page.getByRole('button', { name: 'Evaluate' }).click();
  await expect.poll(async () => (await responseOf(page)).variantKey).toBe('blue');
  expect(await responseOf(page)).toMatchObject({
    flagKey,
    match: true,
    reason: 'MATCH_EVALUATION_REASON',
    segmentKeys: [segmentKey],
  });
  await expect(explanation.getByText("Matches the server's answer.")).toBeVisible();
  await expect(explanation.getByText(/Rule 1: any segment \(OR\)\s*matched/)).toBeVisible();
  await expect(constraints.getByRole('row').nth(2)).toHaveText(/age\s*>=\s*18\s*30\s*matched/);
  await expect(
    explanation.getByText(/The entity's bucket is \d+ of 1000: distribution 1, variant blue\./),
  ).toBeVisible();

  // A property the context lacks shows as not set.
  await context.fill('{"age": "30"}');
  await page.getByRole('button', { name: 'Evaluate' }).click();
  await expect(constraints.getByRole('row').nth(1)).toHaveText(/plan\s*==\s*pro\s*\(not set\)\s*not matched/);
});

test('evaluate a boolean flag with a generated entity id, then copy the request as curl and run it', async ({
  page,
  context,
  server,
  namespace,
}) => {
  const flagKey = await createBooleanFlag(server, namespace);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  await open(page, server, `/namespaces/${namespace}/console`);
  await page.getByRole('combobox', { name: 'Flag' }).fill(flagKey);
  await expect(page.getByText('Boolean flag: Switch')).toBeVisible();

  const entity = page.getByLabel('Entity ID');
  await expect(entity).toHaveValue('');
  await page.getByRole('button', { name: 'Generate' }).click();
  await expect(entity).toHaveValue(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  const entityId = await entity.inputValue();
  await page.getByLabel('Context').fill(`{"note": "it's here"}`);

  await page.getByRole('button', { name: 'Evaluate' }).click();
  await expect(page.getByRole('heading', { name: 'Response' })).toBeVisible();
  const answer = await responseOf(page);
  expect(answer).toMatchObject({ flagKey, enabled: true, reason: 'MATCH_EVALUATION_REASON', segmentKeys: [] });
  const explanation = page.getByRole('region', { name: 'Explanation' });
  await expect(explanation.getByText("Matches the server's answer.")).toBeVisible();
  await expect(explanation.getByText(/Threshold rollout 1: 100% of entities get true\s*matched/)).toBeVisible();
  await expectAccessible(page);

  await page.getByRole('button', { name: 'Copy as curl' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Copied!' })).toBeVisible();
  const command = await page.evaluate(() => navigator.clipboard.readText());
  const body = { namespaceKey: namespace, flagKey, entityId, context: { note: "it's here" } };
  expect(command).toBe(
    `curl -X POST '${server.url}/evaluate/v1/boolean' -H 'Content-Type: application/json' -d '${JSON.stringify(body).replace("'", `'\\''`)}'`,
  );
  const { stdout } = await promisify(execFile)('sh', ['-c', `${command} --silent --show-error --fail`]);
  const fromCurl = JSON.parse(stdout) as Record<string, unknown>;
  for (const field of ['flagKey', 'enabled', 'reason', 'segmentKeys']) expect(fromCurl[field]).toEqual(answer[field]);
});

test('evaluate in another namespace: a disabled variant flag and a boolean flag without rollouts', async ({
  page,
  server,
}) => {
  const namespace = unique('team');
  await api(server, 'POST', '/api/v1/namespaces', { key: namespace, name: 'Team' });
  await api(server, 'POST', `/api/v1/namespaces/${namespace}/flags`, {
    key: 'paused',
    name: 'Paused',
    type: 'VARIANT_FLAG_TYPE',
    enabled: false,
  });
  await api(server, 'POST', `/api/v1/namespaces/${namespace}/flags`, {
    key: 'plain',
    name: 'Plain',
    type: 'BOOLEAN_FLAG_TYPE',
    enabled: true,
  });
  await open(page, server, `/namespaces/${namespace}/console`);
  const explanation = page.getByRole('region', { name: 'Explanation' });

  await page.getByRole('combobox', { name: 'Flag' }).fill('paused');
  await page.getByRole('button', { name: 'Evaluate' }).click();
  await expect(explanation.getByText('The flag is disabled: no rules are evaluated.')).toBeVisible();
  expect(await responseOf(page)).toMatchObject({
    flagKey: 'paused',
    match: false,
    reason: 'FLAG_DISABLED_EVALUATION_REASON',
  });
  await expect(explanation.getByText("Matches the server's answer.")).toBeVisible();

  await page.getByRole('combobox', { name: 'Flag' }).fill('plain');
  await page.getByRole('button', { name: 'Evaluate' }).click();
  await expect(explanation.getByText('The flag has no rollouts with segments or thresholds.')).toBeVisible();
  expect(await responseOf(page)).toMatchObject({
    flagKey: 'plain',
    enabled: true,
    reason: 'DEFAULT_EVALUATION_REASON',
  });
  await expect(explanation.getByText("Matches the server's answer.")).toBeVisible();
  await expectAccessible(page);
});

test('the explanation covers entity-id constraints and the default variant (the full snapshot is asked for)', async ({
  page,
  server,
  namespace,
}) => {
  const segmentKey = unique('vips');
  await api(server, 'POST', `${ns(namespace)}/segments`, {
    key: segmentKey,
    name: 'VIPs',
    matchType: 'ANY_MATCH_TYPE',
  });
  await api(server, 'POST', `${ns(namespace)}/segments/${segmentKey}/constraints`, {
    type: 'ENTITY_ID_COMPARISON_TYPE',
    property: 'entityId',
    operator: 'isoneof',
    value: '["vip-1","vip-2"]',
  });
  const flagKey = unique('greeting');
  await api(server, 'POST', `${ns(namespace)}/flags`, {
    key: flagKey,
    name: 'Greeting',
    type: 'VARIANT_FLAG_TYPE',
    enabled: true,
  });
  const vip = await api<{ id: string }>(server, 'POST', `${ns(namespace)}/flags/${flagKey}/variants`, { key: 'vip' });
  const plain = await api<{ id: string }>(server, 'POST', `${ns(namespace)}/flags/${flagKey}/variants`, {
    key: 'plain',
  });
  await api(server, 'PUT', `${ns(namespace)}/flags/${flagKey}`, {
    name: 'Greeting',
    enabled: true,
    defaultVariantId: plain.id,
  });
  const rule = await api<Rule>(server, 'POST', `${ns(namespace)}/flags/${flagKey}/rules`, { segmentKey, rank: 1 });
  await api(server, 'POST', `${ns(namespace)}/flags/${flagKey}/rules/${rule.id}/distributions`, {
    variantId: vip.id,
    rollout: 100,
  });

  await open(page, server, `/namespaces/${namespace}/console`);
  await page.getByRole('combobox', { name: 'Flag' }).fill(flagKey);
  await page.getByLabel('Entity ID').fill('someone');
  await page.getByRole('button', { name: 'Evaluate' }).click();
  await expect.poll(async () => (await responseOf(page)).variantKey).toBe('plain');
  expect(await responseOf(page)).toMatchObject({ match: false, reason: 'DEFAULT_EVALUATION_REASON' });
  const explanation = page.getByRole('region', { name: 'Explanation' });
  await expect(explanation.getByText("Matches the server's answer.")).toBeVisible();
  await expect(
    explanation
      .getByRole('table', { name: `Constraints of segment ${segmentKey}` })
      .getByRole('row')
      .nth(1),
  ).toHaveText(/someone\s*not matched/);

  await page.getByLabel('Entity ID').fill('vip-2');
  await page.getByRole('button', { name: 'Evaluate' }).click();
  await expect.poll(async () => (await responseOf(page)).variantKey).toBe('vip');
  await expect(explanation.getByText("Matches the server's answer.")).toBeVisible();
  await expect(
    explanation
      .getByRole('table', { name: `Constraints of segment ${segmentKey}` })
      .getByRole('row')
      .nth(1),
  ).toHaveText(/vip-2\s*matched/);
});
