// A survey of the console shown as the React Native 3.2 SDK shows it: the SDK's calls (environment state,
// user state) from Node, then a WebView-like page of an opaque origin that loads /js/surveys.umd.cjs from the
// server and calls window.formbricksSurveys.renderSurvey with the environment state's survey JSON. The answers
// reach the console's results; the next user state shows the display and the response.
import type { Page } from '@playwright/test';
import { api, unique } from './console-support.js';
import { expect, type RunningServer, test } from './fixtures.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * A survey of these questions in a new namespace's environment, fetched as the SDK does (environment state,
 * user state) and rendered by /js/surveys.umd.cjs in a page of an opaque origin, as a WebView's inline HTML.
 */
async function renderInWebView(page: Page, server: RunningServer, questions: unknown[]) {
  const ns = unique('current-wire');
  await api(server, 'POST', '/api/v1/namespaces', { key: ns, name: ns });
  const environments = `/api/v1/namespaces/${ns}/surveys/environments`;
  await api(server, 'POST', environments, {});
  const [{ id: environmentId }] = (await api<{ environments: { id: string }[] }>(server, 'GET', environments))
    .environments;
  const created = await api<{ id: string }>(server, 'POST', `${environments}/${environmentId}/surveys`, {
    name: 'App feedback',
    status: 'inProgress',
    triggers: ['New Session'],
    questions,
    thankYouCard: { enabled: true, headline: 'Thank you!' },
  });

  // The SDK's own calls.
  const client = `${server.url}/api/v1/client/${environmentId}`;
  const state = (await (await fetch(`${client}/environment`)).json()).data.data;
  const surveyJson = state.surveys.find((survey: { id: string }) => survey.id === created.id);
  expect(surveyJson.blocks).toHaveLength(questions.length);
  const user = async () =>
    (
      await (
        await fetch(`${server.url}/api/v2/client/${environmentId}/user`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ userId: 'rn-visitor' }),
        })
      ).json()
    ).data.state.data;
  const { contactId } = await user();

  // The WebView: inline HTML (an opaque origin) that loads the renderer from the server and renders.
  await page.setContent('<!doctype html><html><head><title>WebView</title></head><body></body></html>');
  await page.addScriptTag({ url: `${server.url}/js/surveys.umd.cjs` });
  await page.evaluate(
    ({ survey, workspace, appUrl, workspaceId, contactId }) => {
      const events: string[] = [];
      (window as any).__events = events;
      (window as any).formbricksSurveys.renderSurvey({
        workspaceId,
        contactId,
        survey,
        isBrandingEnabled: workspace.inAppSurveyBranding,
        styling: workspace.styling,
        languageCode: 'default',
        placement: survey.projectOverwrites?.placement ?? workspace.placement,
        appUrl,
        clickOutside: workspace.clickOutsideClose,
        overlay: workspace.overlay,
        isWebEnvironment: false,
        hiddenFieldsRecord: {},
        onDisplayCreated: () => events.push('displayCreated'),
        onResponseCreated: () => events.push('responseCreated'),
        onFinished: () => events.push('finished'),
        onClose: () => events.push('closed'),
      });
    },
    { survey: surveyJson, workspace: state.workspace, appUrl: server.url, workspaceId: environmentId, contactId },
  );
  const results = `${environments}/${environmentId}/surveys/${created.id}/results/responses`;
  /** The survey's one response, once it is finished. */
  const finished = async () => {
    await expect
      .poll(async () => (await api<{ data: { finished: boolean }[] }>(server, 'GET', results)).data[0]?.finished)
      .toBe(true);
    return (await api<{ data: any[] }>(server, 'GET', results)).data[0];
  };
  return { surveyId: created.id, user, finished, dialog: page.getByRole('dialog') };
}

test('renderSurvey draws the environment state’s survey in a WebView-like page and its answers reach the results', async ({
  page,
  server,
}) => {
  // The worker's server may start inside this test, on a machine shared with other suites.
  test.setTimeout(120_000);
  const { surveyId, user, finished, dialog } = await renderInWebView(page, server, [
    { id: 'nps', type: 'nps', headline: 'How likely are you to recommend the app?', required: true },
    { id: 'why', type: 'openText', headline: 'What would you change?', required: false },
  ]);
  await expect(dialog.getByRole('heading', { name: 'How likely are you to recommend the app?' })).toBeVisible();
  await expect.poll(() => page.evaluate(() => (window as any).__events)).toContain('displayCreated');
  await dialog.getByRole('button', { name: '9', exact: true }).click();
  await expect(dialog.getByRole('heading', { name: 'What would you change?' })).toBeVisible();
  await dialog.getByRole('textbox').fill('Dark mode');
  await dialog.getByRole('button', { name: 'Finish' }).click();
  await expect(dialog.getByText('Thank you!')).toBeVisible();
  // The response is created when its first answer is sent, which a slow machine may finish after the last card.
  await expect
    .poll(async () => ((await page.evaluate(() => (window as any).__events)) as string[]).toSorted())
    .toEqual(['displayCreated', 'finished', 'responseCreated']);

  // The answers are in the console's results, the person's, and the next user state knows them.
  expect(await finished()).toMatchObject({ person: { userId: 'rn-visitor' }, data: { nps: 9, why: 'Dark mode' } });
  const again = await user();
  expect(again.displays).toEqual([{ surveyId, createdAt: expect.any(String) }]);
  expect(again.responses).toEqual([surveyId]);
});

test('renderSurvey uploads a file through the presigned fields, and the answer names the stored file', async ({
  page,
  server,
}) => {
  test.setTimeout(120_000);
  const { finished, dialog } = await renderInWebView(page, server, [
    {
      id: 'file',
      type: 'fileUpload',
      headline: 'Attach a screenshot',
      required: true,
      allowMultipleFiles: false,
      allowedFileExtensions: ['png'],
    },
  ]);
  await dialog
    .getByLabel('Attach a screenshot')
    .setInputFiles({ name: 'shot.png', mimeType: 'image/png', buffer: PNG });
  await expect(dialog.getByText('shot.png')).toBeVisible();
  await dialog.getByRole('button', { name: 'Finish' }).click();
  await expect(dialog.getByText('Thank you!')).toBeVisible();
  const [fileUrl] = (await finished()).data.file as string[];
  expect(fileUrl).toContain('/storage/');
  const stored = await fetch(fileUrl);
  expect(stored.status).toBe(200);
  expect(Buffer.from(await stored.arrayBuffer())).toEqual(PNG);
});
