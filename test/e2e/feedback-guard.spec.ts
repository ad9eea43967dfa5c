// e2e-order: starts first (24 visitors)
// A feedback-guarded rollout, as a team would run one: a 50/50 flag, an NPS survey linked to both variants, a guard
// added on the flag's Feedback tab that rolls back. Identified visitors on another origin (half through Ensign's
// loader, half through the real @formbricks/js 1.6.5) answer; those on b answer low. The guard trips, every
// visitor gets a, the flag page and its history say who changed it and why, and Revert restores the split.
import { api, toast, unique } from './console-support.js';
import { expect, test } from './fixtures.js';
import { fiftyFiftyCheckout, hostPageUrl, startHostSite, survey } from './surveys-support.js';

const VISITORS = 24;
const CONCURRENT_VISITORS = 4;

test('a guard rolls a 50/50 flag back to a when the visitors on b answer worse, and Revert restores the split', async ({
  page,
  server,
  browser,
}) => {
  test.setTimeout(300_000);
  const ns = unique('guard');
  const production = await fiftyFiftyCheckout(server, ns);
  await api(server, 'POST', production.surveys, {
    name: 'Checkout feedback',
    status: 'inProgress',
    triggers: ['New Session'],
    questions: [{ id: 'nps', type: 'nps', headline: 'How likely are you to recommend the checkout?', required: true }],
    thankYouCard: { enabled: true, headline: 'Thank you!' },
    linkedFlag: { flagKey: 'checkout', variants: ['a', 'b'] },
  });
  const variantOf = async (entityId: string) =>
    (
      await api<{ variantKey: string }>(server, 'POST', '/evaluate/v1/variant', {
        namespaceKey: ns,
        flagKey: 'checkout',
        entityId,
        context: {},
      })
    ).variantKey;
  const servedToProbes = async (prefix: string) =>
    new Set(await Promise.all(Array.from({ length: 30 }, (_, i) => variantOf(`${prefix}-${i}`))));

  // The operator adds the guard on the flag's Feedback tab.
  await page.goto(`${server.url}/#/namespaces/${ns}/flags/checkout/feedback`);
  const card = page.getByRole('article', { name: 'Checkout feedback' });
  const form = card.getByRole('form', { name: 'New guard' });
  await form.getByLabel('Baseline').selectOption('a');
  await form.getByLabel('Smallest regression that matters').fill('10');
  await form.getByLabel('Answers per value before it may act').fill('4');
  await form.getByRole('button', { name: 'Add guard' }).click();
  const guard = card.getByRole('article', { name: /^Guard / });
  await expect(guard).toContainText('Collecting');
  await expect(guard).toContainText('rolls back on a regression of 10 or more');

  const site = await startHostSite();
  const visit = async (i: number) => {
    const userId = `visitor-${i}`;
    const context = await browser.newContext();
    try {
      const visitor = await context.newPage();
      await visitor.goto(
        hostPageUrl(site, server.url, {
          environmentId: production.environmentId,
          userId,
          ...(i % 2 === 1 && {
            loader: `${site.origin}/vendor/formbricks-js.umd.js`,
            renderer: `${server.url}/api/js?module=surveys&format=umd`,
          }),
        }),
      );
      const dialog = survey(visitor);
      // Four visitors' browsers and the server share the machine: the survey may take a while to show.
      await expect(dialog.getByText('How likely are you to recommend the checkout?')).toBeVisible({ timeout: 30_000 });
      // The variant the visitor got is the one the flag gives now: after the trip, a.
      const score = (await variantOf(userId)) === 'b' ? i % 8 : 10;
      const stored = visitor.waitForResponse(
        (response) =>
          /\/api\/v1\/client\/[^/]+\/responses/.test(response.url()) &&
          response.request().method() !== 'GET' &&
          response.request().postDataJSON()?.finished === true,
      );
      await dialog.getByRole('button', { name: String(score), exact: true }).click();
      // The thank-you card shows only briefly on a busy machine; the stored answer is what the guard reads.
      expect((await stored).ok(), userId).toBe(true);
    } finally {
      await context.close();
    }
  };
  try {
    let next = 0;
    const arrivals = async () => {
      while (next < VISITORS) await visit(next++);
    };
    await Promise.all(Array.from({ length: CONCURRENT_VISITORS }, arrivals));
  } finally {
    await site.close();
  }

  // The guard tripped and rolled back: /evaluate/v1/variant answers a for everyone.
  await expect.poll(() => servedToProbes('after'), { timeout: 10_000 }).toEqual(new Set(['a']));
  await expect(guard).toContainText('Regressed');
  await expect(guard.getByRole('status')).toContainText('Rolled back to a');
  await expect(guard).toContainText(/b answers worse than a: -\d/);
  await expect(guard).toContainText('always-valid interval');

  // The history says who changed the flag and why; Revert restores the 50/50 split.
  await page.getByRole('navigation', { name: 'Flag' }).getByRole('link', { name: 'History' }).click();
  const change = page.getByRole('list', { name: 'Changes' }).getByRole('article', { name: 'flag updated by guard' });
  await expect(change).toContainText(/Feedback guard: b answers worse than a/);
  await change.getByRole('button', { name: /^Revert change/ }).click();
  await page.getByRole('dialog', { name: 'Revert Change' }).getByRole('button', { name: 'Revert' }).click();
  await expect(toast(page).success).toHaveText('Successfully reverted change');
  expect(await servedToProbes('reverted')).toEqual(new Set(['a', 'b']));
});
