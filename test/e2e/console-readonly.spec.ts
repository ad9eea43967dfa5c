import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator } from '@playwright/test';
import { expect, startServer, test, type RunningServer } from './fixtures.js';
import { expectAccessible, offered, open } from './console-support.js';

const READ_ONLY = 'Not allowed in Read-Only mode';

/** A write refused in read-only mode stays focusable, is described by the reason and shows it as a tooltip on focus. */
async function expectReason(button: Locator) {
  await expect(button).toHaveAttribute('aria-disabled', 'true');
  await expect(button).toHaveAccessibleDescription(READ_ONLY);
  await button.focus();
  await expect(button.page().getByRole('tooltip')).toHaveText(READ_ONLY);
  await button.blur();
}
// Two namespaces, so that copying is disabled by read-only mode alone.
const FEATURES = `version: "1.2"
namespace: default
flags:
  - key: ro-flag
    name: Read-only flag
    type: VARIANT_FLAG_TYPE
    enabled: true
    variants:
      - key: blue
        name: Blue
    rules:
      - segment: ro-segment
        distributions:
          - variant: blue
            rollout: 100
      - segment: ro-segment
segments:
  - key: ro-segment
    name: Read-only segment
    match_type: ALL_MATCH_TYPE
    constraints:
      - type: STRING_COMPARISON_TYPE
        property: plan
        operator: eq
        value: pro
---
namespace: other
flags:
  - key: elsewhere
    name: Elsewhere
    type: BOOLEAN_FLAG_TYPE
`;

let server: RunningServer;
let folder: string;

test.beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'ensign-local-'));
  writeFileSync(join(folder, 'features.yml'), FEATURES);
  // Token authentication on (not required), so that the console offers token writes to refuse.
  const config = join(folder, 'config.yml');
  writeFileSync(config, 'authentication:\n  methods:\n    token:\n      enabled: true\n');
  server = await startServer(['--storage', 'local', '--storage-path', folder, '--config', config]);
});

test.afterAll(async () => {
  await server?.stop();
  rmSync(folder, { recursive: true, force: true });
});

test('on local storage the console is read-only: badge, fields, submit, copy, delete and constraint actions', async ({
  page,
}) => {
  await open(page, server, '/namespaces/default/flags');
  await expect(page.getByRole('banner').getByText('Read-Only: local')).toBeVisible();
  await expect(page.getByRole('button', { name: 'New Flag' })).toBeDisabled();
  await expectReason(page.getByRole('button', { name: 'New Flag' }));
  // The list's Enabled switch is refused in place: it keeps its state.
  const toggle = page.getByRole('switch', { name: 'Enabled ro-flag' });
  await expectReason(toggle);
  const state = await toggle.getAttribute('aria-checked');
  // force: Playwright waits for an aria-disabled element to be enabled before clicking it
  await toggle.click({ force: true });
  await expect(toggle).toHaveAttribute('aria-checked', state!);
  await expect(page).toHaveURL(/#\/namespaces\/default\/flags$/);
  await expectAccessible(page);
  // Switching namespaces is reading: the switcher offers both.
  expect(await offered(page, page.getByRole('navigation', { name: 'Sidebar' }), 'Namespace')).toHaveLength(2);

  await page.getByRole('link', { name: 'ro-flag' }).click();
  await expect(page.getByRole('heading', { name: 'Read-only flag' })).toBeVisible();
  await expect(page.getByLabel('Name', { exact: true })).toBeDisabled();
  await expect(page.getByLabel('Description')).toBeDisabled();
  await expect(page.getByRole('switch', { name: 'Enabled' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Update' })).toBeDisabled();
  await expectReason(page.getByRole('button', { name: 'Update' }));
  await expect(page.getByRole('button', { name: 'New Variant' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Delete blue' })).toBeDisabled();
  await page.getByRole('button', { name: 'Actions' }).click();
  // The refused menu items are reached with the arrow keys and show the reason.
  await expectReason(page.getByRole('menuitem', { name: 'Copy to Namespace' }));
  await expectReason(page.getByRole('menuitem', { name: 'Delete' }));
  await page.keyboard.press('Escape');
  await expectAccessible(page);

  await open(page, server, '/namespaces/default/flags/ro-flag/rules');
  await expect(page.getByRole('heading', { name: 'Default Rule' })).toBeVisible();
  await expect(
    page.getByRole('form', { name: 'Default Rule' }).getByRole('combobox', { name: 'Default Variant', exact: true }),
  ).toBeDisabled();
  // Reordering is refused with its reason on the move buttons, which stay reachable by keyboard.
  await expectReason(page.getByRole('button', { name: 'Move rule 2 up' }));
  await expectReason(page.getByRole('button', { name: 'Move rule 1 down' }));
  await expectReason(page.getByRole('button', { name: 'Delete rule 1' }));

  await open(page, server, '/namespaces/default/segments/ro-segment');
  await expect(page.getByRole('heading', { name: 'Read-only segment' })).toBeVisible();
  await expect(page.getByLabel('Name', { exact: true })).toBeDisabled();
  await expect(page.getByRole('radio', { name: /^Any/ })).toBeDisabled();
  await expectReason(page.getByRole('button', { name: 'Update' }));
  await expect(page.getByRole('row', { name: /plan String == pro/ })).toBeVisible();
  // Constraint writes stay in place, refused with their reason, as every other write.
  await expectReason(page.getByRole('button', { name: 'New Constraint' }));
  await expectReason(page.getByRole('button', { name: 'Edit plan' }));
  await expectReason(page.getByRole('button', { name: 'Delete plan' }));
  await page.getByRole('button', { name: 'New Constraint' }).click({ force: true });
  await expect(page.getByRole('dialog', { name: 'New Constraint' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Actions' }).click();
  await expect(page.getByRole('menuitem', { name: 'Copy to Namespace' })).toBeDisabled();
  await expect(page.getByRole('menuitem', { name: 'Delete' })).toBeDisabled();
  await page.keyboard.press('Escape');
  await open(page, server, '/namespaces/default/segments');
  await expect(page.getByRole('button', { name: 'New Segment' })).toBeDisabled();
  await expectAccessible(page);

  // Namespaces cannot be written either: Settings > Namespaces offers no enabled write.
  await open(page, server, '/settings/namespaces');
  await expect(page.getByRole('button', { name: 'New Namespace' })).toBeDisabled();
  await expectReason(page.getByRole('button', { name: 'New Namespace' }));
  await expect(page.getByRole('button', { name: 'Edit default' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Delete default' })).toBeDisabled();

  // Nor tokens.
  await open(page, server, '/settings/tokens');
  await expect(page.getByRole('heading', { name: 'Static Tokens' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'New Token' })).toBeDisabled();
  await expectReason(page.getByRole('button', { name: 'New Token' }));
});
