// Today's @formbricks/js 5.1.0, from npm and unmodified, on a host page of another origin: it loads
// `${appUrl}/js/formbricks.umd.cjs`, which Ensign answers with its loader's 5.x face (docs/compatibility.md).
import type { Page } from '@playwright/test';
import { api, unique } from './console-support.js';
import { expect, test } from './fixtures.js';
import { management, startHostSite, survey, surveyEnvironments } from './surveys-support.js';

interface Person {
  userId: string;
  attributes: Record<string, string>;
}

/** The SDK as a site's bundle holds it: window.formbricks5, with the surveys shown so far in window.shown. */
type SdkPage = Window & {
  formbricks5: {
    setup(config: { appUrl: string; workspaceId: string }): Promise<void>;
    setUserId(userId: string): Promise<void>;
    setAttributes(attributes: Record<string, string>): Promise<void>;
    track(code: string, properties?: { hiddenFields: Record<string, string> }): Promise<void>;
    logout(): Promise<void>;
    on(event: string, handler: (payload: { surveyId: string }) => void): () => void;
  };
  shown: string[];
};

/** Imports the real SDK on the host page, subscribes to formbricks_survey_shown, then calls setup(). */
const setUp = (page: Page, appUrl: string, workspaceId: string) =>
  page.evaluate(
    async ({ appUrl, workspaceId }) => {
      const w = window as unknown as SdkPage;
      const sdk = '/vendor/formbricks-js-5.js';
      w.formbricks5 = (await import(sdk)).default;
      w.shown = [];
      w.formbricks5.on('formbricks_survey_shown', ({ surveyId }) => w.shown.push(surveyId));
      await w.formbricks5.setup({ appUrl, workspaceId });
    },
    { appUrl, workspaceId },
  );

const shown = (page: Page) => page.evaluate(() => (window as unknown as SdkPage).shown);

test('@formbricks/js 5.1.0: setup, a New Session survey, the person, a code action with a hidden field, events, logout', async ({
  page,
  server,
}) => {
  const ns = unique('sdk5');
  await api(server, 'POST', '/api/v1/namespaces', { key: ns, name: ns });
  const production = await surveyEnvironments(server, ns);
  const { apiKey } = await api<{ apiKey: string }>(server, 'POST', `${production.environment}/api-keys`, {
    label: 'e2e',
  });
  await api(server, 'POST', `${production.environment}/action-classes`, { name: 'checkout', type: 'code' });
  const nps = (id: string, headline: string) => [{ id, type: 'nps', headline, required: true }];
  const welcome = await api<{ id: string }>(server, 'POST', production.surveys, {
    name: 'Welcome',
    status: 'inProgress',
    triggers: ['New Session'],
    questions: nps('mood', 'How do you like the shop so far?'),
  });
  const checkout = await api<{ id: string }>(server, 'POST', production.surveys, {
    name: 'Checkout',
    status: 'inProgress',
    triggers: ['checkout'],
    questions: nps('score', 'How likely are you to recommend the checkout?'),
    hiddenFields: { enabled: true, fieldIds: ['plan'] },
    thankYouCard: { enabled: true, headline: 'Thank you!' },
  });

  const site = await startHostSite();
  try {
    await page.goto(site.blankPage);
    const loaded = page.waitForRequest(`${server.url}/js/formbricks.umd.cjs`);
    await setUp(page, server.url, production.environmentId);
    await loaded;

    // New Session: the welcome survey shows, and the subscriber heard of it.
    const dialog = survey(page);
    await expect(dialog.getByText('How do you like the shop so far?')).toBeVisible();
    await expect.poll(() => shown(page)).toEqual([welcome.id]);
    await dialog.getByRole('button', { name: 'Close survey' }).click();
    await expect(dialog).toHaveCount(0);

    // setUserId and setAttributes reach the person.
    await page.evaluate(async () => {
      const { formbricks5 } = window as unknown as SdkPage;
      await formbricks5.setUserId('ada');
      await formbricks5.setAttributes({ plan: 'pro', company: 'Acme' });
    });
    const ada = async () =>
      (await management<Person[]>(server.url, '/people', apiKey)).find((person) => person.userId === 'ada');
    await expect.poll(async () => (await ada())?.attributes).toEqual({ plan: 'pro', company: 'Acme' });

    // track() of a code action shows its survey; the answer, with its hidden field, is in the results.
    await page.evaluate(() =>
      (window as unknown as SdkPage).formbricks5.track('checkout', { hiddenFields: { plan: 'pro' } }),
    );
    await expect(dialog.getByText('How likely are you to recommend the checkout?')).toBeVisible();
    await dialog.getByRole('button', { name: '9', exact: true }).click();
    await expect(dialog.getByText('Thank you!')).toBeVisible();
    await expect.poll(() => shown(page)).toEqual([welcome.id, checkout.id]);
    const results = `${production.environment}/surveys/${checkout.id}/results/responses`;
    let responses: { data: Record<string, unknown>; finished: boolean }[] = [];
    await expect
      .poll(async () => {
        responses = (await api<{ data: typeof responses }>(server, 'GET', results)).data;
        return responses.map((response) => response.finished);
      })
      .toEqual([true]);
    expect(responses[0].data).toEqual({ score: 9, plan: 'pro' });

    // logout() forgets the visitor: what follows is anonymous, here and after a reload.
    await page.evaluate(() => (window as unknown as SdkPage).formbricks5.logout());
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('formbricks-js') || '{}').userId)).toBeUndefined();
    await page.evaluate(() => (window as unknown as SdkPage).formbricks5.setAttributes({ plan: 'free' }));
    const syncs: string[] = [];
    page.on('request', (request) => request.url().includes('/in-app/sync') && syncs.push(request.url()));
    await page.reload();
    await setUp(page, server.url, production.environmentId);
    expect(syncs.some((url) => url.includes('/in-app/sync/'))).toBe(false);
    expect((await ada())?.attributes).toEqual({ plan: 'pro', company: 'Acme' });
  } finally {
    await site.close();
  }
});
