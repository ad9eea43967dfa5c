import { readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures.js';
import type { TSurveyQuestion } from '../../domain/surveys/types.js';
import { makeSurvey } from '../unit/widget/render/survey-fixture.js';

// Parity with @formbricks/surveys 1.6.3: the same survey answered the same way in the real renderer
// and in ours must produce the same onResponse `data` sequence. (Date and cal are left out: the real
// renderer loads their widgets from unpkg and cal.com.)
const ORIGIN = 'http://host.test';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const questions: TSurveyQuestion[] = [
  {
    id: 'name',
    type: 'openText',
    headline: 'Your name?',
    required: true,
    inputType: 'text',
    longAnswer: false,
    placeholder: 'Name',
  },
  { id: 'bio', type: 'openText', headline: 'About you?', required: false, placeholder: 'Bio' },
  {
    id: 'plan',
    type: 'multipleChoiceSingle',
    headline: 'Plan?',
    required: true,
    choices: [
      { id: 'free', label: 'Free' },
      { id: 'pro', label: 'Pro' },
      { id: 'other', label: 'Other' },
    ],
    // A free "other" text is matched as "Other": the jump skips the next question.
    logic: [{ condition: 'equals', value: 'Other', destination: 'uses' }],
  },
  { id: 'skipped', type: 'openText', headline: 'Never shown', required: true },
  {
    id: 'uses',
    type: 'multipleChoiceMulti',
    headline: 'Uses?',
    required: true,
    choices: [
      { id: 'flags', label: 'Flags' },
      { id: 'surveys', label: 'Surveys' },
      { id: 'other', label: 'Other' },
    ],
  },
  { id: 'nps', type: 'nps', headline: 'Recommend?', required: true, lowerLabel: 'No', upperLabel: 'Yes' },
  {
    id: 'stars',
    type: 'rating',
    headline: 'Stars?',
    required: true,
    scale: 'number',
    range: 7,
    lowerLabel: 'Low',
    upperLabel: 'High',
  },
  { id: 'terms', type: 'consent', headline: 'Terms?', html: '<p>Terms text</p>', label: 'I accept', required: false },
  {
    id: 'pics',
    type: 'pictureSelection',
    headline: 'Pictures?',
    required: true,
    allowMulti: true,
    choices: [
      { id: 'p1', imageUrl: `${ORIGIN}/img/1.png` },
      { id: 'p2', imageUrl: `${ORIGIN}/img/2.png` },
    ],
  },
  { id: 'file', type: 'fileUpload', headline: 'File?', required: false, allowMultipleFiles: false },
  {
    id: 'cta',
    type: 'cta',
    headline: 'Beta?',
    required: false,
    buttonExternal: false,
    buttonLabel: 'Join',
    dismissButtonLabel: 'Later',
  },
  { id: 'cta2', type: 'cta', headline: 'Last?', required: true, buttonExternal: false, buttonLabel: 'Done' },
];
const survey = makeSurvey(questions, { welcomeCard: { enabled: true, headline: 'Welcome', buttonLabel: 'Start' } });

async function run(page: Page, script: string, answer: (root: Locator) => Promise<void>) {
  await page.route(`${ORIGIN}/**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === '/')
      return route.fulfill({
        contentType: 'text/html',
        body: '<!doctype html><html lang="en"><head><title>Host</title></head><body></body></html>',
      });
    if (path === '/renderer.js')
      return route.fulfill({ contentType: 'text/javascript', body: readFileSync(script, 'utf8') });
    return route.fulfill({ contentType: 'image/png', body: PNG });
  });
  await page.goto(`${ORIGIN}/`);
  await page.addScriptTag({ url: `${ORIGIN}/renderer.js` });
  await page.evaluate((survey) => {
    const responses: unknown[] = ((window as any).__responses = []);
    (window as any).formbricksSurveys.renderSurveyModal({
      survey,
      brandColor: '#0f766e',
      isBrandingEnabled: false,
      clickOutside: false,
      darkOverlay: false,
      highlightBorderColor: null,
      placement: 'center',
      getSetIsError: () => {},
      getSetIsResponseSendingFinished: () => {},
      onDisplay: async () => {},
      onResponse: (update: { data: unknown; ttc: object; finished: boolean }) =>
        responses.push({ data: update.data, ttcKeys: Object.keys(update.ttc).sort(), finished: update.finished }),
      onClose: async () => {},
      onFileUpload: async (file: File) => `/storage/env/private/${file.name.replace('.', '--fid--abc.')}`,
      onRetry: () => {},
    });
  }, survey);
  await answer(page.locator('body'));
  await expect(page.getByText('Thank you!')).toBeVisible();
  // As sent on the wire: JSON drops undefined values.
  return page.evaluate(() => JSON.parse(JSON.stringify((window as any).__responses)) as unknown[]);
}

/** Answers every question the same way, using only what both renderers show: texts, labels, buttons. */
async function answerAll(
  root: Locator,
  pick: { rating: (n: number) => Locator; picture: (i: number) => Locator; file: Locator },
) {
  const next = () => root.getByRole('button', { name: /^(Next|Finish)$/ }).click();
  await root.getByRole('button', { name: 'Start' }).click();
  await root.getByPlaceholder('Name').fill('Ada');
  await next();
  await expect(root.getByText('About you?')).toBeVisible();
  await next();
  await root.getByText('Other', { exact: true }).click();
  await root.getByPlaceholder('Please specify').fill('Team');
  await next();
  await expect(root.getByText('Uses?')).toBeVisible();
  await root.getByText('Surveys', { exact: true }).click();
  await root.getByText('Flags', { exact: true }).click();
  await next();
  await pick.rating(8).click();
  await expect(root.getByText('Stars?')).toBeVisible();
  await pick.rating(5).click();
  await expect(root.getByText('Terms?')).toBeVisible();
  await next();
  await pick.picture(1).click();
  await pick.picture(0).click();
  await next();
  await expect(root.getByText('File?')).toBeVisible();
  await pick.file.setInputFiles({ name: 'a.png', mimeType: 'image/png', buffer: PNG });
  await expect(root.getByText('a.png')).toBeVisible();
  await next();
  // Back from a CTA, then forward again with the kept upload.
  await root.getByRole('button', { name: 'Back' }).click();
  await expect(root.getByText('a.png')).toBeVisible();
  await next();
  await root.getByRole('button', { name: 'Later' }).click();
  await root.getByRole('button', { name: 'Done' }).click();
}

test('our renderer writes the same data as @formbricks/surveys 1.6.3', async ({ browser }) => {
  const realPage = await browser.newPage();
  const real = await run(realPage, 'node_modules/@formbricks/surveys/dist/index.umd.js', (root) =>
    answerAll(root, {
      rating: (n) => root.locator('label').filter({ hasText: new RegExp(`^${n}$`) }),
      picture: (i) => root.locator('#fbjs img').nth(i),
      file: root.locator('input[type=file]'),
    }),
  );
  const oursPage = await browser.newPage();
  const ours = await run(oursPage, 'dist/widget/surveys.js', (root) =>
    answerAll(root, {
      rating: (n) => root.getByRole('button', { name: String(n), exact: true }),
      picture: (i) => root.getByLabel(`Picture ${i + 1}`),
      file: root.locator('input[type=file]'),
    }),
  );
  expect(real.length).toBe(questions.length + 2); // welcome + answered questions + the CTA's Back + the file again
  expect(ours).toEqual(real);
});
