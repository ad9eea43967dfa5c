import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { BASE, ENV, HOST, fakeApi, loader, unload, survey } from './helpers.js';

// The loader must drive the real @formbricks/surveys 1.6 renderer unchanged, as @formbricks/js 1.6.5 does.
const umd = readFileSync('node_modules/@formbricks/surveys/dist/index.umd.js', 'utf8');

beforeEach(() => {
  localStorage.clear();
  document.body.innerHTML = '';
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  // the UMD assigns window.formbricksSurveys when evaluated as a classic script
  new Function(umd).call(window);
});
afterEach(async () => {
  await unload();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  delete (window as { formbricksSurveys?: unknown }).formbricksSurveys;
});

it('renders the survey with the real renderer and sends its answer', async () => {
  expect(
    typeof (window as { formbricksSurveys?: { renderSurveyModal?: unknown } }).formbricksSurveys?.renderSurveyModal,
  ).toBe('function');
  const fb = await loader();
  const api = fakeApi({
    surveys: [
      survey('cs', {
        triggers: ['New Session'],
        questions: [
          {
            id: 'q1',
            type: 'openText',
            headline: 'What brought you here?',
            required: true,
            longAnswer: false,
            inputType: 'text',
          },
        ],
      }),
    ],
  });
  await fb.init({ environmentId: ENV, apiHost: HOST });
  await vi.waitFor(() => expect(document.body.innerHTML).toContain('What brought you here?'));
  await vi.waitFor(() => expect(api.calls.some((c) => c.url === `${BASE}/displays`)).toBe(true));
  const input = document.querySelector<HTMLInputElement>('input[type="text"], textarea')!;
  input.value = 'a friend';
  input.dispatchEvent(new Event('input', { bubbles: true }));
  // The input is controlled by the renderer's state: a value cleared behind its back is written back once
  // it re-renders with the typed answer, which is then what a submit sends.
  input.value = '';
  await vi.waitFor(() => expect(input.value).toBe('a friend'));
  (input.closest('form') as HTMLFormElement).requestSubmit();
  await vi.waitFor(() => expect(api.calls.some((c) => c.url === `${BASE}/responses`)).toBe(true));
  const created = api.calls.find((c) => c.url === `${BASE}/responses`)!;
  expect(created.body).toMatchObject({
    surveyId: 'cs',
    userId: null,
    singleUseId: null,
    finished: true,
    data: { q1: 'a friend' },
  });
});
