import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_SIZE } from '../../../server/surveys/results-routes.js';
import { dialects } from '../support.js';
import { CLIENT, startSurveyApp, type SurveyTestApp } from '../surveys/support.js';

/** Management listings answer a page at a time, as Formbricks' management API (`limit`, `skip`). */
describe.each(dialects)('management listings are paged on %s', (dialect) => {
  let t: SurveyTestApp;
  beforeAll(async () => {
    t = await startSurveyApp(dialect);
    for (let i = 0; i < PAGE_SIZE.default + 5; i++) {
      expect((await t.request('POST', `${CLIENT}/people`, { userId: `paged-${i}` })).status).toBe(200);
    }
  });
  afterAll(() => t.close());

  const list = async (path: string) => (await t.management('GET', path)).body.data as { id: string }[];

  it('people, displays and action classes: the default page, limit and skip, and a 400 beyond the maximum', async () => {
    expect(await list('/people')).toHaveLength(PAGE_SIZE.default);
    const all = await list(`/people?limit=${PAGE_SIZE.max}`);
    expect(all.length).toBeGreaterThanOrEqual(PAGE_SIZE.default + 5);
    expect(await list(`/people?limit=3&skip=2`)).toEqual(all.slice(2, 5));
    const survey = (await t.management('GET', '/surveys')).body.data[0].id as string;
    for (let i = 0; i < 3; i++) await t.request('POST', `${CLIENT}/displays`, { surveyId: survey });
    const displays = await list(`/displays?surveyId=${survey}&limit=${PAGE_SIZE.max}`);
    expect(await list(`/displays?surveyId=${survey}&limit=2&skip=1`)).toEqual(displays.slice(1, 3));
    const classes = await list(`/action-classes?limit=${PAGE_SIZE.max}`);
    expect(await list('/action-classes?limit=1&skip=1')).toEqual(classes.slice(1, 2));
    for (const path of ['/people', '/displays', '/action-classes']) {
      const over = await t.management('GET', `${path}?limit=${PAGE_SIZE.max + 1}`);
      expect(over.status).toBe(400);
    }
  });
});
