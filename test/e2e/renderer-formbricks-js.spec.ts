import { readFileSync } from 'node:fs';
import type { Request } from '@playwright/test';
import { expect, test } from './fixtures.js';
import { makeSurvey } from '../unit/widget/render/survey-fixture.js';

// The real @formbricks/js 1.6.5 loader drives our renderer (preloaded as window.formbricksSurveys)
// against a routed stand-in for the client API, so the 14 props and the wire payloads are the real ones.
const ORIGIN = 'http://host.test';
const ENV = 'clenv00000000000000000001';

const product = {
  id: 'clproduct0000000000000001',
  createdAt: '2024-01-01T00:00:00.000Z',
  updatedAt: '2024-01-01T00:00:00.000Z',
  name: 'Demo',
  teamId: 'clteam000000000000000001',
  brandColor: '#0f766e',
  highlightBorderColor: null,
  recontactDays: 7,
  inAppSurveyBranding: true,
  linkSurveyBranding: true,
  placement: 'bottomRight',
  clickOutsideClose: true,
  darkOverlay: false,
  environments: [],
};

const survey = makeSurvey(
  [
    {
      id: 'name',
      type: 'openText',
      headline: 'What is your name?',
      required: true,
      inputType: 'text',
      longAnswer: false,
    },
    {
      id: 'score',
      type: 'nps',
      headline: 'Would you recommend us, #recall:name/fallback:friend#?',
      required: true,
      lowerLabel: 'No',
      upperLabel: 'Yes',
    },
  ],
  { welcomeCard: { enabled: true, headline: 'Hi!', buttonLabel: 'Start' } },
);

test('the real @formbricks/js 1.6.5 loader shows our renderer and posts its displays and responses', async ({
  page,
}) => {
  const calls: { method: string; path: string; body: unknown }[] = [];
  const loader = readFileSync('node_modules/@formbricks/js/dist/index.umd.js', 'utf8');
  const renderer = readFileSync('dist/widget/surveys.js', 'utf8');
  await page.route(`${ORIGIN}/**`, (route, request: Request) => {
    const url = new URL(request.url());
    const path = url.pathname;
    if (path === '/') {
      return route.fulfill({
        contentType: 'text/html',
        body: '<!doctype html><html lang="en"><head><title>Host</title></head><body><h1>Host</h1></body></html>',
      });
    }
    if (path === '/surveys.js') return route.fulfill({ contentType: 'text/javascript', body: renderer });
    if (path === '/formbricks.js') return route.fulfill({ contentType: 'text/javascript', body: loader });
    const body = request.postData() ? JSON.parse(request.postData()!) : undefined;
    calls.push({ method: request.method(), path: path.replace(`/api/v1/client/${ENV}`, '') + url.search, body });
    const json = (data: unknown) => route.fulfill({ contentType: 'application/json', body: JSON.stringify({ data }) });
    if (path.endsWith('/in-app/sync'))
      return json({ surveys: [survey], noCodeActionClasses: [], product, person: null });
    if (path.endsWith('/displays') && request.method() === 'POST') return json({ id: 'cldisplay0000000000000001' });
    if (path.endsWith('/responses') && request.method() === 'POST') return json({ id: 'clresponse000000000000001' });
    return json({});
  });
  await page.goto(`${ORIGIN}/`);
  await page.addScriptTag({ url: `${ORIGIN}/surveys.js` });
  await page.addScriptTag({ url: `${ORIGIN}/formbricks.js` });
  await page.evaluate(({ env, origin }) => (window as any).formbricks.init({ environmentId: env, apiHost: origin }), {
    env: ENV,
    origin: ORIGIN,
  });

  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Hi!' })).toBeVisible();
  await page.keyboard.press('Enter');
  await dialog.getByRole('textbox').fill('Ada');
  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('heading', { name: 'Would you recommend us, Ada?' })).toBeVisible();
  await dialog.getByRole('button', { name: '10' }).click();
  await expect(dialog.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
  // The loader hands the renderer its "all sent" setter; the finished PUT must have gone out.
  await expect.poll(() => calls.filter((c) => c.method === 'PUT' && c.path.startsWith('/responses/')).length).toBe(2);

  const writes = calls.filter((c) => c.method !== 'GET');
  expect(writes.map((c) => `${c.method} ${c.path}`)).toEqual([
    'POST /displays',
    'POST /responses',
    'PUT /displays/cldisplay0000000000000001',
    'PUT /responses/clresponse000000000000001',
    'PUT /responses/clresponse000000000000001',
  ]);
  expect(writes[0].body).toEqual({ surveyId: survey.id });
  expect(writes[1].body).toEqual({
    data: { welcomeCard: 'clicked' },
    ttc: {},
    finished: false,
    surveyId: survey.id,
    userId: null,
    singleUseId: null,
  });
  expect(writes[2].body).toEqual({ responseId: 'clresponse000000000000001' });
  expect(writes[3].body).toMatchObject({ data: { name: 'Ada', inputType: 'text' }, finished: false });
  expect(writes[4].body).toMatchObject({ data: { score: 10 }, finished: true });
  expect(Object.keys((writes[4].body as { ttc: object }).ttc).sort()).toEqual(['name', 'score']);

  // After the survey closes, the loader rebuilds its container: our modal is gone.
  await expect(dialog).toHaveCount(0, { timeout: 15_000 });
  await expect(page.locator('#formbricks-web-container')).toHaveCount(1);
});
