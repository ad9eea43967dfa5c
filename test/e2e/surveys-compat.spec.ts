import { test, expect, startServer, type RunningServer } from './fixtures.js';
import { hostPageUrl, management, responsesOf, startHostSite, survey, type HostSite } from './surveys-support.js';

const ENVIRONMENT = 'ce2eenvironment000000001';
const SURVEY = 'ce2equicksurvey000000001';
const FILE_SURVEY = 'ce2efilesurvey0000000001';
const KEY = 'e2e-management-key-0001';

let server: RunningServer;
let site: HostSite;
test.beforeAll(async () => {
  server = await startServer(['--surveys', 'test/e2e/surveys-seed.yml']);
  site = await startHostSite();
});
test.afterAll(async () => {
  await site?.close();
  await server?.stop();
});

async function trackQuickAction(page: import('@playwright/test').Page) {
  await expect(page.locator('#log')).toContainText('init done');
  await page.getByLabel('Action name').fill('Quick action');
  await page.getByRole('button', { name: 'Track action' }).click();
}

test('the real @formbricks/js 1.6.5 drives our renderer against our server, across origins', async ({ page }) => {
  await page.goto(
    hostPageUrl(site, server.url, {
      environmentId: ENVIRONMENT,
      userId: 'compat-user',
      loader: `${site.origin}/vendor/formbricks-js.umd.js`,
      renderer: `${server.url}/api/js?module=surveys&format=umd`,
    }),
  );
  await trackQuickAction(page);
  const dialog = survey(page);
  await expect(dialog.getByText('Are you happy with the shop?')).toBeVisible();
  await dialog.getByText('Yes, very').click();
  await dialog.getByRole('button', { name: 'Next' }).click();
  await dialog.getByRole('textbox').fill('Great prices');
  await dialog.getByRole('button', { name: 'Finish' }).click();
  await expect(dialog.getByText('Thanks for the feedback')).toBeVisible();

  const [response] = await responsesOf(server.url, SURVEY, KEY);
  expect(response.data).toMatchObject({ happy: 'Yes, very', why: 'Great prices' });
  expect(response.person).toMatchObject({ userId: 'compat-user' });
  expect(Object.keys(response.ttc)).toEqual(expect.arrayContaining(['happy', 'why', '_total']));
  const displays = await management<any[]>(server.url, `/displays?surveyId=${SURVEY}`, KEY);
  expect(displays).toEqual([expect.objectContaining({ responseId: response.id })]);
  const actions = await management<any[]>(server.url, '/action-classes', KEY);
  expect(actions.map((a) => a.name)).toEqual(expect.arrayContaining(['New Session', 'Quick action']));

  // The real client's signed two-step upload, from the other origin.
  const fileUrl = await page.evaluate(
    (surveyId) =>
      (window as any).formbricks
        .getApi()
        .client.storage.uploadFile(new File(['from the real client'], 'report.txt', { type: 'text/plain' }), {
          surveyId,
          allowedFileExtensions: ['plain'],
        }),
    FILE_SURVEY,
  );
  expect(fileUrl).toMatch(new RegExp(`/storage/${ENVIRONMENT}/private/report--fid--[0-9a-f-]+\\.txt$`));
  expect(await (await fetch(fileUrl)).text()).toBe('from the real client');
});

test('our loader drives the real @formbricks/surveys 1.6.3 renderer', async ({ page }) => {
  const before = (await management<any[]>(server.url, `/responses?surveyId=${SURVEY}`, KEY)).length;
  await page.goto(
    hostPageUrl(site, server.url, {
      environmentId: ENVIRONMENT,
      rendererUrl: `${site.origin}/vendor/formbricks-surveys.umd.js`,
    }),
  );
  await trackQuickAction(page);
  // The 1.6 renderer mounts its own container under <body>, outside the loader's.
  const container = page.locator('body');
  await expect(container.getByText('Are you happy with the shop?')).toBeVisible();
  await container.getByText('Not really').click();
  await container.getByRole('button', { name: 'Next' }).click();
  await container.getByPlaceholder('Your answer').fill('Too slow');
  await container.getByRole('button', { name: 'Finish' }).click();
  await expect(container.getByText('Thanks for the feedback')).toBeVisible();

  await expect
    .poll(async () => (await management<any[]>(server.url, `/responses?surveyId=${SURVEY}`, KEY)).length)
    .toBe(before + 1);
  const [latest] = await responsesOf(server.url, SURVEY, KEY);
  expect(latest.data).toMatchObject({ happy: 'Not really', why: 'Too slow' });
  expect(latest.person).toBeNull();
});

test('the survey chunk (alongside the sync) and the renderer (once the page is idle) are fetched next to the loader', async ({
  page,
}) => {
  const chunkRequests: string[] = [];
  const rendererRequests: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('formbricks-survey')) chunkRequests.push(request.url());
    if (request.url().includes('module=surveys')) rendererRequests.push(request.url());
  });
  // the self-starting path of a Formbricks server: the chunk is then at /api/formbricks-survey.mjs
  await page.goto(
    hostPageUrl(site, server.url, { environmentId: ENVIRONMENT, loader: `${server.url}/api/js?module=js` }),
  );
  await expect(page.locator('#log')).toContainText('init done');
  await expect.poll(() => chunkRequests).toEqual([`${server.url}/api/formbricks-survey.mjs`]);
  await expect.poll(() => rendererRequests).toEqual([`${server.url}/api/js?module=surveys&format=umd`]);
  // requested is not yet run: the renderer script defines window.formbricksSurveys once it has evaluated
  await expect.poll(() => page.evaluate(() => 'formbricksSurveys' in window)).toBe(true);
  // then, in idle time, the survey that could show is drawn and held ready in the container, unseen
  const held = () =>
    page.evaluate(() => {
      const host = document.querySelector<HTMLElement>('#formbricks-web-container > div');
      const dialog = host?.shadowRoot?.querySelector('[role="dialog"]');
      return {
        headline: dialog?.querySelector('#h')?.textContent,
        visible: dialog?.checkVisibility({ visibilityProperty: true }),
        inert: host?.inert,
      };
    });
  await expect.poll(held).toMatchObject({ headline: 'Are you happy with the shop?', visible: false, inert: true });
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.evaluate(() => ((document.querySelector('#formbricks-web-container > div') as any).__rehearsed = true));
  // time passes between drawing and showing
  await page.waitForTimeout(1500);

  await trackQuickAction(page);
  const dialog = survey(page);
  await expect(dialog.getByText('Are you happy with the shop?')).toBeVisible();
  // the very dialog held ready is shown
  expect(
    await page.evaluate(() => (document.querySelector('#formbricks-web-container > div') as any).__rehearsed),
  ).toBe(true);
  // nothing more to download when the survey shows
  expect(chunkRequests).toHaveLength(1);
  expect(rendererRequests).toHaveLength(1);
  // and it runs as any survey: the time on a card counts from when it was shown, not from when it was drawn
  await dialog.getByText('Not really').click();
  await dialog.getByRole('button', { name: 'Next' }).click();
  await dialog.getByRole('textbox').fill('Held ready');
  await dialog.getByRole('button', { name: 'Finish' }).click();
  await expect(dialog.getByText('Thanks for the feedback')).toBeVisible();
  const happyTtc = async () =>
    (await management<any[]>(server.url, `/responses?surveyId=${SURVEY}`, KEY)).find(
      (r) => r.finished && r.data.why === 'Held ready',
    )?.ttc.happy;
  await expect.poll(happyTtc).toBeLessThan(1500);
});
