import type { Page } from '@playwright/test';
import { test, expect, startServer, type RunningServer } from './fixtures.js';
import { hostPageUrl, management, responsesOf, startHostSite, survey, type HostSite } from './surveys-support.js';

// Our loader with our renderer on a host page of another origin, against the demo environment.
const WELCOME = 'clensigndemosurveywelcom';
const ALL_TYPES = 'clensigndemosurveyallqts';
const PRICING = 'clensigndemosurveypricin';
const CLICK = 'clensigndemosurveyclicks';
const EXIT = 'clensigndemosurveyexitin';
const SCROLL = 'clensigndemosurveyscroll';

let server: RunningServer;
let site: HostSite;
test.beforeAll(async () => {
  server = await startServer();
  site = await startHostSite();
});
test.afterAll(async () => {
  await site?.close();
  await server?.stop();
});

/** Every fresh visitor first gets the New Session survey; these tests close it to try another trigger. */
async function openPageAndCloseWelcome(page: Page) {
  await page.goto(hostPageUrl(site, server.url));
  await expect(survey(page).getByText('Welcome to the Ensign demo')).toBeVisible();
  await survey(page).getByRole('button', { name: 'Close survey' }).click();
  await expect(survey(page)).toHaveCount(0);
}

async function finishSurvey(page: Page) {
  await survey(page).getByRole('button', { name: 'Finish' }).click();
  await expect(survey(page).getByText('Thank you!')).toBeVisible();
}

test('New Session: the demo page shows the welcome survey with no set-up, and its answers are stored', async ({
  page,
}) => {
  await page.goto(`${server.url}/demo/`);
  const dialog = survey(page);
  await expect(dialog.getByText('Welcome to the Ensign demo')).toBeVisible();
  await dialog.getByRole('button', { name: 'Start' }).click();
  await dialog.getByRole('button', { name: '4 of 5' }).click();
  await dialog.getByRole('textbox').fill('More coffee');
  await finishSurvey(page);

  const [response] = await responsesOf(server.url, WELCOME);
  expect(response.data).toMatchObject({ mood: 4, wish: 'More coffee' });
  const displays = await management<any[]>(server.url, `/displays?surveyId=${WELCOME}`);
  expect(displays).toContainEqual(expect.objectContaining({ responseId: response.id }));
  await expect(page.locator('#log')).toContainText('POST /api/v1/client/clensigndemoenvironment0/responses');
});

test('a named action shows every question type; logic jumps, the upload and every value are stored', async ({
  page,
}) => {
  await openPageAndCloseWelcome(page);
  await page.getByRole('button', { name: 'Code Action (every question type)' }).click();
  const dialog = survey(page);
  const next = () => dialog.getByRole('button', { name: 'Next' }).click();

  await dialog.getByText('Developer').click();
  await next();
  await dialog.getByText('Feature flags').click();
  await dialog.getByText('Other', { exact: true }).click();
  await dialog.getByRole('textbox', { name: 'Other' }).fill('Docs');
  await next();
  await dialog.getByRole('textbox').fill('Ada');
  await next();
  await expect(dialog.getByText('Your email, Ada?')).toBeVisible();
  await dialog.getByRole('textbox').fill('ada@example.com');
  await next();
  // 5 is below 7: the logic jumps over the two rating questions.
  await dialog.getByRole('button', { name: '5', exact: true }).click();
  await expect(dialog.getByText('What should we improve?')).toBeVisible();
  await dialog.getByRole('textbox').fill('More speed');
  await next();
  await dialog.getByRole('button', { name: 'Open' }).click();
  await dialog.getByText('I agree').click();
  await next();
  await dialog.getByRole('checkbox', { name: 'Picture 1' }).check();
  await dialog.getByRole('checkbox', { name: 'Picture 3' }).check();
  await next();
  await dialog.locator('input[type="date"]').fill('2024-05-17');
  await next();
  await dialog
    .locator('input[type="file"]')
    .setInputFiles({ name: 'shot.png', mimeType: 'image/png', buffer: Buffer.from('not really a png') });
  await expect(dialog.getByText('shot.png')).toBeVisible();
  await next();
  await expect(dialog.getByText('Book a call with us')).toBeVisible();
  await dialog.getByRole('button', { name: 'Finish' }).click();
  await expect(dialog.getByText('All question types answered')).toBeVisible();

  const [response] = await responsesOf(server.url, ALL_TYPES);
  expect(response.data).toMatchObject({
    role: 'Developer',
    features: ['Feature flags', 'Docs'],
    name: 'Ada',
    email: 'ada@example.com',
    recommend: 5,
    improve: 'More speed',
    docs: 'clicked',
    terms: 'accepted',
    colour: ['teal', 'amber'],
    when: '2024-05-17',
  });
  expect(response.data).not.toHaveProperty('stars');
  expect(response.data).not.toHaveProperty('points');
  expect(response.ttc._total).toBeGreaterThan(0);
  const [fileUrl] = response.data.screenshot;
  expect(fileUrl).toMatch(new RegExp(`^${server.url}/storage/clensigndemoenvironment0/private/shot--fid--`));
  expect(await (await fetch(fileUrl)).text()).toBe('not really a png');
  const displays = await management<any[]>(server.url, `/displays?surveyId=${ALL_TYPES}`);
  expect(displays).toEqual([expect.objectContaining({ responseId: response.id })]);
});

test('a logic jump to the end finishes the survey at once', async ({ page }) => {
  await openPageAndCloseWelcome(page);
  await page.getByLabel('Action name').fill('Code Action');
  await page.getByRole('button', { name: 'Track action' }).click();
  await survey(page).getByText('Skip to the end').click();
  await survey(page).getByRole('button', { name: 'Next' }).click();
  await expect(survey(page).getByText('All question types answered')).toBeVisible();
  await expect
    .poll(async () =>
      (await management<any[]>(server.url, `/responses?surveyId=${ALL_TYPES}`)).some(
        (r) => r.finished && r.data.role === 'Skip to the end',
      ),
    )
    .toBe(true);
});

test('page URL: a hash change and a pushState to the pricing page show its survey', async ({ page }) => {
  await openPageAndCloseWelcome(page);
  await page.getByRole('button', { name: 'Hash change to #pricing' }).click();
  await expect(survey(page).getByText('Is the pricing clear?')).toBeVisible();
  await survey(page).getByText('Yes', { exact: true }).click();
  await finishSurvey(page);
  const [response] = await responsesOf(server.url, PRICING);
  expect(response.data).toEqual({ price: 'Yes' });

  await survey(page).getByRole('button', { name: 'Close survey' }).click();
  await page.getByRole('button', { name: 'pushState back home' }).click();
  await page.getByRole('button', { name: 'pushState to ?page=pricing#pricing' }).click();
  await expect(survey(page).getByText('Is the pricing clear?')).toBeVisible();
  await expect.poll(async () => (await management<any[]>(server.url, `/displays?surveyId=${PRICING}`)).length).toBe(2);
});

test('the click that closes a survey opens nothing, although page-URL actions match any click', async ({ page }) => {
  await openPageAndCloseWelcome(page);
  const displays = async () => (await management<any[]>(server.url, `/displays?surveyId=${PRICING}`)).length;
  const before = await displays();
  await page.getByRole('button', { name: 'Hash change to #pricing' }).click();
  await expect(survey(page).getByText('Is the pricing clear?')).toBeVisible();
  // The display is posted after the survey shows: wait for it to be stored before counting on it.
  await expect.poll(displays).toBe(before + 1);
  const shown = before + 1;
  await survey(page).getByRole('button', { name: 'Close survey' }).click();
  // The loader runs its commands one at a time: once a later command is done, so is the click's.
  await page.evaluate(() => (window as any).formbricks.track('no such action'));
  await expect(survey(page)).toHaveCount(0);
  expect(await displays()).toBe(shown);
  // A later click on the page, outside any survey, still triggers as before.
  await page.locator('#log').click();
  await expect(survey(page).getByText('Is the pricing clear?')).toBeVisible();
  await expect.poll(displays).toBe(shown + 1);
});

test('click: the element the action class matches shows its survey', async ({ page }) => {
  await openPageAndCloseWelcome(page);
  await page.getByRole('button', { name: 'Give feedback' }).click();
  await survey(page).getByRole('textbox').fill('Lovely widget');
  await finishSurvey(page);
  const [response] = await responsesOf(server.url, CLICK);
  expect(response.data).toMatchObject({ feedback: 'Lovely widget' });
});

test('exit intent: the mouse leaving the page shows its survey', async ({ page }) => {
  await openPageAndCloseWelcome(page);
  await page.getByRole('button', { name: 'Exit intent (mouse leaves the page)' }).click();
  await survey(page).getByRole('textbox').fill('Just browsing');
  await finishSurvey(page);
  const [response] = await responsesOf(server.url, EXIT);
  expect(response.data).toMatchObject({ leaving: 'Just browsing' });
});

test('50% scroll: scrolling past the middle shows its survey', async ({ page }) => {
  await openPageAndCloseWelcome(page);
  await page.getByRole('button', { name: 'Scroll past 50%' }).click();
  await survey(page).getByRole('button', { name: '3', exact: true }).click();
  await expect(survey(page).getByText('Thank you!')).toBeVisible();
  const [response] = await responsesOf(server.url, SCROLL);
  expect(response.data).toEqual({ useful: 3 });
});

test('the demo panel identifies a visitor, sets attributes, tracks actions and links to the responses', async ({
  page,
}) => {
  await openPageAndCloseWelcome(page);
  await page.getByLabel('User id').fill('panel-user');
  await page.getByRole('button', { name: 'Identify (reloads)' }).click();
  await expect(page.locator('#visitor')).toHaveText('panel-user');
  await expect(survey(page).getByText('Welcome to the Ensign demo')).toBeVisible();
  await survey(page).getByRole('button', { name: 'Close survey' }).click();

  await page.getByRole('button', { name: 'Set attribute' }).click();
  await page.getByRole('button', { name: 'Set email' }).click();
  await expect
    .poll(
      async () => (await management<any[]>(server.url, '/people')).find((p) => p.userId === 'panel-user')?.attributes,
    )
    .toEqual({ plan: 'paid', email: 'test@web.com' });
  await page.getByLabel('Action name').fill('Panel action');
  await page.getByRole('button', { name: 'Track action' }).click();
  // The log already holds an earlier POST /actions (the New Session): poll for the new action class.
  await expect
    .poll(async () => (await management<any[]>(server.url, '/action-classes')).map((a) => a.name))
    .toContain('Panel action');

  await page.getByRole('link', { name: 'Responses recorded for this environment' }).click();
  const welcome = page.locator(`section[data-survey-id="${WELCOME}"]`);
  await expect(welcome.getByRole('heading', { name: 'Welcome (New Session)' })).toBeVisible();
  await expect(welcome.locator('.counts')).toContainText(/[1-9]\d* display\(s\)/);
});

test('the demo panel turns debug logging on and resets the widget into a new session', async ({ page }) => {
  await openPageAndCloseWelcome(page);
  await page.getByRole('button', { name: 'Debug: off' }).click();
  await expect(page).toHaveURL(/formbricksDebug=true/);
  await expect(page.getByRole('button', { name: 'Debug: on' })).toBeVisible();
  await expect(page.locator('#log')).toContainText('init done');

  await page.getByRole('button', { name: 'Clear log' }).click();
  await page.getByRole('button', { name: 'formbricks.reset()' }).click();
  await expect(page.locator('#log')).toContainText('GET /api/v1/client/clensigndemoenvironment0/in-app/sync');
  // With debug on, the widget's own account of the new sync shows up in the log.
  await expect(page.locator('#log')).toContainText('[DEBUG]');
  await expect(survey(page).getByText('Welcome to the Ensign demo')).toBeVisible();
});
