import { expect, test } from './fixtures.js';
import { expectAccessible, open } from './console-support.js';
import { shoot, SIZES, THEMES } from './console-page-list.js';

// The survey pages of the demo environment, in light and dark: axe-core finds no serious or critical
// violation, nothing is wider than the window at 375 px, and screenshots at 1440x900 and 375x800 are
// saved to test-results/screenshots/.

const DEMO = '/namespaces/default/surveys/clensigndemoenvironment0';
const EVERY_TYPE = 'Every question type (Code Action)';

test('survey list, editor with its preview, environment and actions pages: accessible, light and dark, 1440 and 375 px', async ({
  page,
  server,
}) => {
  test.setTimeout(180_000);
  await open(page, server, DEMO);
  const editLink = page.getByRole('link', { name: EVERY_TYPE });
  await expect(editLink).toBeVisible();
  const editor = (await editLink.getAttribute('href'))!.replace(/^#/, '');
  const pages: [string, string, () => ReturnType<typeof page.getByRole>][] = [
    ['surveys', DEMO, () => page.getByRole('link', { name: EVERY_TYPE })],
    ['survey-editor', editor, () => page.getByTestId('survey-preview').getByRole('button')],
    ['survey-environment', `${DEMO}/environment`, () => page.getByRole('heading', { name: 'Set up the widget' })],
    ['survey-actions', `${DEMO}/actions`, () => page.getByRole('cell', { name: 'Visited pricing', exact: true })],
  ];
  for (const [name, route, ready] of pages) {
    for (const theme of THEMES) {
      await page.emulateMedia({ colorScheme: theme });
      for (const size of SIZES) {
        await page.setViewportSize(size);
        await open(page, server, route);
        await expect(ready().first()).toBeVisible();
        if (size.width === 1440) await expectAccessible(page);
        else
          expect(
            await page.evaluate(() => document.documentElement.scrollWidth),
            `${name} at 375 px`,
          ).toBeLessThanOrEqual(375);
        await shoot(page, 'test-results/screenshots', name, size, theme);
      }
    }
  }
});
