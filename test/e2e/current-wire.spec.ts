// A survey of the console shown as the React Native 3.2 SDK shows it: the SDK's calls (environment state,
// user state) from Node, then a WebView-like page of an opaque origin that loads /js/surveys.umd.cjs from the
// server and calls window.formbricksSurveys.renderSurvey with the environment state's survey JSON. The answers
// reach the console's results; the next user state shows the display and the response.
import { api, unique } from './console-support.js';
import { expect, test } from './fixtures.js';

test('renderSurvey draws the environment state’s survey in a WebView-like page and its answers reach the results', async ({
  page,
  server,
}) => {
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
    questions: [
      { id: 'nps', type: 'nps', headline: 'How likely are you to recommend the app?', required: true },
      { id: 'why', type: 'openText', headline: 'What would you change?', required: false },
    ],
    thankYouCard: { enabled: true, headline: 'Thank you!' },
  });

  // The SDK's own calls.
  const client = `${server.url}/api/v1/client/${environmentId}`;
  const state = (await (await fetch(`${client}/environment`)).json()).data.data;
  const surveyJson = state.surveys.find((survey: { id: string }) => survey.id === created.id);
  expect(surveyJson.blocks).toHaveLength(2);
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
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'How likely are you to recommend the app?' })).toBeVisible();
  await expect.poll(() => page.evaluate(() => (window as any).__events)).toContain('displayCreated');
  await dialog.getByRole('button', { name: '9', exact: true }).click();
  await expect(dialog.getByRole('heading', { name: 'What would you change?' })).toBeVisible();
  await dialog.getByRole('textbox').fill('Dark mode');
  await dialog.getByRole('button', { name: 'Finish' }).click();
  await expect(dialog.getByText('Thank you!')).toBeVisible();
  await expect
    .poll(() => page.evaluate(() => (window as any).__events))
    .toEqual(['displayCreated', 'responseCreated', 'finished']);

  // The answers are in the console's results, the person's, and the next user state knows them.
  const results = `${environments}/${environmentId}/surveys/${created.id}/results/responses`;
  await expect
    .poll(async () => (await api<{ data: { finished: boolean }[] }>(server, 'GET', results)).data[0]?.finished)
    .toBe(true);
  const [response] = (await api<{ data: any[] }>(server, 'GET', results)).data;
  expect(response).toMatchObject({ person: { userId: 'rn-visitor' }, data: { nps: 9, why: 'Dark mode' } });
  const again = await user();
  expect(again.displays).toEqual([{ surveyId: created.id, createdAt: expect.any(String) }]);
  expect(again.responses).toEqual([created.id]);
});
