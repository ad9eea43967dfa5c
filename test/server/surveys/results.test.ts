import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../server/db/index.js';
import { rebuildRollups } from '../../../server/surveys/store/rollups.js';
import { dialects } from '../support.js';
import { CLIENT, ENV, startSurveyApp, type SurveyTestApp } from './support.js';

const CONSOLE = `/api/v1/namespaces/default/surveys/environments/${ENV}`;

const SURVEY = {
  name: 'Results survey',
  triggers: ['Results action'],
  hiddenFields: { enabled: true, fieldIds: ['campaign'] },
  questions: [
    { id: 'nps', type: 'nps', headline: 'How likely?', required: false, lowerLabel: 'No', upperLabel: 'Yes' },
    {
      id: 'plan',
      type: 'multipleChoiceSingle',
      headline: 'Plan',
      required: false,
      choices: [
        { id: 'free', label: 'Free' },
        { id: 'pro', label: 'Pro' },
        { id: 'other', label: 'Other' },
      ],
    },
    { id: 'why', type: 'openText', headline: 'Why, "really"?', required: false },
    { id: 'cta', type: 'cta', headline: 'Try it', required: false, buttonExternal: false },
    {
      id: 'stars',
      type: 'rating',
      headline: 'Stars',
      required: false,
      scale: 'star',
      range: 5,
      lowerLabel: 'Bad',
      upperLabel: 'Good',
    },
  ],
};

describe.each(dialects)('survey results on %s', (dialect) => {
  let t: SurveyTestApp;
  let surveyId: string;
  const ids: Record<string, string> = {};
  const results = (path: string) => t.request('GET', `${CONSOLE}/surveys/${surveyId}/results${path}`);
  const withFilter = (path: string, filter: unknown) =>
    results(`${path}${path.includes('?') ? '&' : '?'}filter=${encodeURIComponent(JSON.stringify(filter))}`);

  /** A response as the widget makes it: created with its first answers, then completed with its times. */
  async function respond(
    name: string,
    userId: string | null,
    data: Record<string, unknown>,
    ttc: Record<string, number>,
    finished: boolean,
  ) {
    const created = await t.request('POST', `${CLIENT}/responses`, { surveyId, userId, finished: false, data: {} });
    expect(created.status).toBe(200);
    ids[name] = created.body.data.id;
    const updated = await t.request('PUT', `${CLIENT}/responses/${ids[name]}`, { finished, data, ttc });
    expect(updated.status).toBe(200);
  }

  beforeAll(async () => {
    t = await startSurveyApp(dialect);
    const created = await t.management('POST', '/surveys', SURVEY);
    expect(created.status).toBe(200);
    surveyId = created.body.data.id;
    for (let i = 0; i < 5; i++) await t.request('POST', `${CLIENT}/displays`, { surveyId });
    await t.request('POST', `${CLIENT}/people/results-gold`, { attributes: { tier: 'gold' } });
    await t.request('POST', `${CLIENT}/people/results-silver`, { attributes: { tier: 'silver' } });
    await respond(
      'r1',
      'results-gold',
      { nps: 10, plan: 'Pro', why: 'great, "really"', cta: 'clicked', stars: 5, campaign: 'spring' },
      { nps: 1000, plan: 2000, why: 3000, cta: 500, stars: 500 },
      true,
    );
    await respond(
      'r2',
      'results-silver',
      { nps: 6, plan: 'Enterprise please', why: '', cta: 'dismissed', stars: 3 },
      { nps: 2000, plan: 1000, why: 1000, cta: 500, stars: 500 },
      true,
    );
    await respond('r3', null, { nps: 9 }, { nps: 500, plan: 300 }, false);
    // Saw the NPS question and left without a number: dismissed.
    await respond('r4', null, {}, { nps: 700 }, false);
  });
  afterAll(() => t.close());

  it("summarises with Formbricks 1.6's formulas", async () => {
    const { status, body } = await results('/summary');
    expect(status).toBe(200);
    const summary = body.data;
    expect(summary.meta).toEqual({
      displayCount: 5,
      totalResponses: 4,
      startsPercentage: 80,
      completedResponses: 2,
      completedPercentage: 40,
      dropOffCount: 2,
      dropOffPercentage: 50,
      ttcAverage: 6000,
    });
    expect(
      summary.dropOff.map((q: any) => [q.questionId, q.views, q.dropOffCount, q.dropOffPercentage, q.ttc]),
    ).toEqual([
      ['nps', 5, 1, 20, 1050],
      ['plan', 4, 1, 25, 1100],
      ['why', 3, 0, 0, 2000],
      ['cta', 3, 0, 0, 500],
      ['stars', 3, 1, 33.33, 500],
    ]);
    const [nps, plan, why, cta, stars] = summary.questions;
    expect(nps).toMatchObject({
      total: 4,
      promoters: { count: 2, percentage: 50 },
      passives: { count: 0, percentage: 0 },
      detractors: { count: 1, percentage: 25 },
      dismissed: { count: 1, percentage: 25 },
      score: 25,
    });
    expect(plan.total).toBe(2);
    expect(plan.choices).toEqual([
      { value: 'Free', count: 0, percentage: 0 },
      { value: 'Pro', count: 1, percentage: 50 },
      { value: 'Other', count: 1, percentage: 50, other: true },
    ]);
    expect(plan.samples.map((s: any) => [s.value, s.person?.userId])).toEqual([
      ['Enterprise please', 'results-silver'],
    ]);
    expect(why.total).toBe(1);
    expect(why.samples.map((s: any) => s.value)).toEqual(['great, "really"']);
    expect(cta).toMatchObject({ total: 2, clicked: { count: 1, percentage: 50 }, dismissed: { count: 1 } });
    expect(stars.average).toBe(4);
    expect(stars.values.map((v: any) => v.count)).toEqual([0, 0, 1, 0, 1]);
    expect(summary.hiddenFields).toEqual([
      { fieldId: 'campaign', total: 1, samples: [expect.objectContaining({ value: 'spring', responseId: ids.r1 })] },
    ]);
  });

  it('lists responses newest first, paged by keyset, with the same filter as the summary', async () => {
    const first = await results('/responses?limit=3');
    expect(first.body.data.map((r: any) => r.id)).toEqual([ids.r4, ids.r3, ids.r2]);
    expect(first.body.data[2]).toMatchObject({
      person: { userId: 'results-silver' },
      personAttributes: { tier: 'silver' },
      finished: true,
      ttc: { nps: 2000, _total: 5000 },
      tags: [],
      notes: [],
    });
    const second = await results(`/responses?limit=3&cursor=${first.body.nextCursor}`);
    expect(second.body).toEqual({ data: [expect.objectContaining({ id: ids.r1 })], nextCursor: null });

    const cases: [unknown, string[]][] = [
      [{ finished: true }, [ids.r2, ids.r1]],
      [{ personAttributes: { tier: { op: 'equals', value: 'gold' } } }, [ids.r1]],
      [{ personAttributes: { tier: { op: 'notEquals', value: 'gold' } } }, [ids.r4, ids.r3, ids.r2]],
      [{ data: { nps: { op: 'greaterEqual', value: 9 } } }, [ids.r3, ids.r1]],
      [{ data: { nps: { op: 'skipped' } } }, [ids.r4]],
      [{ data: { plan: { op: 'includesOne', value: ['Pro', 'Free'] } } }, [ids.r1]],
      [{ data: { cta: { op: 'clicked' } } }, [ids.r1]],
      [{ data: { why: { op: 'submitted' } } }, [ids.r1]],
      [{ data: { campaign: { op: 'equals', value: 'spring' } } }, [ids.r1]],
      [{ createdAt: { min: '2000-01-01T00:00:00Z', max: '2000-01-02T00:00:00Z' } }, []],
    ];
    for (const [filter, expected] of cases) {
      const list = await withFilter('/responses', filter);
      expect(
        list.body.data.map((r: any) => r.id),
        JSON.stringify(filter),
      ).toEqual(expected);
      const summary = await withFilter('/summary', filter);
      expect(summary.body.data.meta.totalResponses, JSON.stringify(filter)).toBe(expected.length);
    }
  });

  it('answers a bad filter, limit or cursor with a 400 naming the field', async () => {
    const cases: [string, string][] = [
      ['/summary?filter=nope', 'filter'],
      [`/summary?filter=${encodeURIComponent('{"finished":"yes"}')}`, 'filter.finished'],
      [`/summary?filter=${encodeURIComponent('{"data":{"nps":{"op":"clicked"}}}')}`, 'filter.data.nps.op'],
      [`/summary?filter=${encodeURIComponent('{"data":{"nope":{"op":"submitted"}}}')}`, 'filter.data.nope'],
      [
        `/summary?filter=${encodeURIComponent('{"data":{"nps":{"op":"lessThan","value":"x"}}}')}`,
        'filter.data.nps.value',
      ],
      ['/responses?limit=0', 'limit'],
      ['/responses?limit=501', 'limit'],
      ['/responses?cursor=bogus', 'cursor'],
    ];
    for (const [path, field] of cases) {
      const { status, body } = await results(path);
      expect(status, path).toBe(400);
      expect(Object.keys(body.details), path).toEqual([field]);
    }
    const elsewhere = `/api/v1/namespaces/other/surveys/environments/${ENV}/surveys/${surveyId}/results/summary`;
    expect((await t.request('GET', elsewhere)).status).toBe(404);
  });

  it('counts trends per day', async () => {
    const { body } = await results('/trends');
    const today = new Date().toISOString().slice(0, 10);
    expect(body.data).toEqual([{ day: today, responses: 4, nps: { nps: 25 }, rating: { stars: 4 } }]);
  });

  it('exports CSV with Formbricks columns, filtered as the list', async () => {
    const response = await withFilter('/export.csv', { finished: true });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    const lines = (response.body as string).trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'No.,Response ID,Timestamp,Finished,Survey ID,User ID,Notes,Tags,source,url,userAgent - browser,userAgent - os,userAgent - device,1. How likely?,2. Plan,"3. Why, ""really""?",4. Try it,5. Stars,campaign,tier',
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(new RegExp(`^1,${ids.r2},[^,]+,Yes,${surveyId},results-silver,,,`));
    expect(lines[2]).toContain(',10,Pro,"great, ""really""",clicked,5,spring,gold');
  });

  it('tags, notes and deletes responses, and filters by tag', async () => {
    const tagged = await t.request('POST', `${CONSOLE}/responses/${ids.r2}/tags`, { name: 'bug' });
    expect(tagged.status).toBe(200);
    expect((await t.request('POST', `${CONSOLE}/responses/${ids.r2}/tags`, { name: ' ' })).body.details).toEqual({
      name: 'must not be empty',
    });
    const note = await t.request('POST', `${CONSOLE}/responses/${ids.r2}/notes`, { text: 'call back' });
    expect(note.body.data).toMatchObject({ text: 'call back', isResolved: false, isEdited: false });
    const edited = await t.request('PATCH', `${CONSOLE}/responses/${ids.r2}/notes/${note.body.data.id}`, {
      text: 'called',
      isResolved: true,
    });
    expect(edited.body.data).toMatchObject({ text: 'called', isResolved: true, isEdited: true });

    expect((await withFilter('/responses', { tags: { applied: ['bug'] } })).body.data.map((r: any) => r.id)).toEqual([
      ids.r2,
    ]);
    expect((await withFilter('/responses', { tags: { notApplied: ['bug'] } })).body.data.map((r: any) => r.id)).toEqual(
      [ids.r4, ids.r3, ids.r1],
    );
    const listed = (await withFilter('/responses', { tags: { applied: ['bug'] } })).body.data[0];
    expect(listed.tags.map((tag: any) => tag.name)).toEqual(['bug']);
    expect(listed.notes.map((n: any) => n.text)).toEqual(['called']);
    const csv = (await withFilter('/export.csv', { tags: { applied: ['bug'] } })).body as string;
    expect(csv).toContain(',Ensign user: called,bug,');

    await t.request('DELETE', `${CONSOLE}/responses/${ids.r2}/tags/${tagged.body.data.id}`);
    expect((await withFilter('/responses', { tags: { applied: ['bug'] } })).body.data).toEqual([]);

    const spare = await t.request('POST', `${CLIENT}/responses`, { surveyId, userId: null, finished: false, data: {} });
    expect((await t.request('DELETE', `${CONSOLE}/responses/${spare.body.data.id}`)).status).toBe(200);
    expect((await t.request('DELETE', `${CONSOLE}/responses/${spare.body.data.id}`)).status).toBe(404);
  });

  it('pages the management API by limit and skip, with the filter', async () => {
    const all = (await t.management('GET', `/responses?surveyId=${surveyId}`)).body.data.map((r: any) => r.id);
    expect(all).toEqual([ids.r4, ids.r3, ids.r2, ids.r1]);
    const page = await t.management('GET', `/responses?surveyId=${surveyId}&limit=2&skip=1`);
    expect(page.body.data.map((r: any) => r.id)).toEqual([ids.r3, ids.r2]);
    const filter = encodeURIComponent(JSON.stringify({ finished: true }));
    const filtered = await t.management('GET', `/responses?surveyId=${surveyId}&filter=${filter}`);
    expect(filtered.body.data.map((r: any) => r.id)).toEqual([ids.r2, ids.r1]);
    const bad = await t.management('GET', '/responses?limit=9999');
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.details)).toEqual(['limit']);
  });

  it('reads a date range by creation time', async () => {
    const database = await openDatabase(t.database.url, { migrate: false });
    try {
      await database.db
        .updateTable('survey_responses')
        .set({ created_at: '2024-03-02T10:00:00.000Z' })
        .where('id', '=', ids.r1)
        .execute();
      // Written behind the store's back: the rollups are made again.
      const survey = await database.db
        .selectFrom('surveys')
        .select('document')
        .where('id', '=', surveyId)
        .executeTakeFirstOrThrow();
      await rebuildRollups(database, { id: surveyId, ...JSON.parse(survey.document) });
    } finally {
      await database.close();
    }
    const filter = { createdAt: { min: '2024-03-01T00:00:00Z', max: '2024-03-03T00:00:00Z' } };
    expect((await withFilter('/responses', filter)).body.data.map((r: any) => r.id)).toEqual([ids.r1]);
    const trend = (await withFilter('/trends', filter)).body.data;
    expect(trend.map((d: any) => [d.day, d.responses, d.nps.nps])).toEqual([
      ['2024-03-01', 0, null],
      ['2024-03-02', 1, 100],
      ['2024-03-03', 0, null],
    ]);
  });
});
