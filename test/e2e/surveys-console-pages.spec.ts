import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.js';
import { expectAccessible, open } from './console-support.js';
import { SIZES, THEMES } from './console-page-list.js';

// The survey pages of the demo environment, in light and dark: axe-core finds no serious or critical
// violation at 1440 px, and nothing is wider than the window at 375 px. One test per page, so that the
// pages are checked side by side.

const DEMO = '/namespaces/default/surveys/clensigndemoenvironment0';
const EVERY_TYPE = 'Every question type (Code Action)';

/** The editor's route: the one the survey list links to. */
async function editorRoute(page: Page, server: { url: string }): Promise<string> {
  await open(page, server, DEMO);
  const editLink = page.getByRole('link', { name: EVERY_TYPE });
  await expect(editLink).toBeVisible();
  return (await editLink.getAttribute('href'))!.replace(/^#/, '');
}

const PAGES: [
  string,
  (page: Page, server: { url: string }) => Promise<string>,
  (page: Page) => ReturnType<Page['getByRole']>,
][] = [
  ['surveys', async () => DEMO, (page) => page.getByRole('link', { name: EVERY_TYPE })],
  ['survey-editor', editorRoute, (page) => page.getByTestId('survey-preview').getByRole('button')],
  [
    'survey-environment',
    async () => `${DEMO}/environment`,
    (page) => page.getByRole('heading', { name: 'Set up the widget' }),
  ],
  [
    'survey-actions',
    async () => `${DEMO}/actions`,
    (page) => page.getByRole('cell', { name: 'Visited pricing', exact: true }),
  ],
];

for (const [name, routeOf, ready] of PAGES) {
  test(`${name}: accessible, light and dark, 1440 and 375 px`, async ({ page, server }) => {
    const route = await routeOf(page, server);
    for (const theme of THEMES) {
      await page.emulateMedia({ colorScheme: theme });
      for (const size of SIZES) {
        await page.setViewportSize(size);
        await open(page, server, route);
        await expect(ready(page).first()).toBeVisible();
        if (size.width === 1440) await expectAccessible(page);
        else
          expect(
            await page.evaluate(() => document.documentElement.scrollWidth),
            `${name} at 375 px`,
          ).toBeLessThanOrEqual(375);
      }
    }
  });
}
