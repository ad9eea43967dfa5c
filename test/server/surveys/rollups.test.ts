// The results' rollups (#31) against a scan of the responses: on generated responses spread over days,
// the summary and the trends read from the rollups (unfiltered, finished, date ranges with parts of
// days) equal those scanned, after creates, updates (also concurrent ones), deletes and a survey edit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResponseFilter } from '../../../domain/surveys/response-filter.js';
import { openDatabase } from '../../../server/db/index.js';
import { ChangeFeed } from '../../../server/changes.js';
import { displayCount } from '../../../server/surveys/store/results.js';
import { exportCsv } from '../../../server/surveys/results.js';
import { SurveyStore } from '../../../server/surveys/store/index.js';
import { fillMissingRollups, rollupsCurrent } from '../../../server/surveys/store/rollups.js';
import { dialects } from '../support.js';
import { CLIENT, ENV, startSurveyApp, type SurveyTestApp } from './support.js';

const CONSOLE = `/api/v1/namespaces/default/surveys/environments/${ENV}`;

const choices = (...labels: string[]) => labels.map((label) => ({ id: label.toLowerCase(), label }));
const SURVEY = {
  name: 'Rollup survey',
  triggers: ['Rollup action'],
  hiddenFields: { enabled: true, fieldIds: ['source'] },
  questions: [
    { id: 'nps', type: 'nps', headline: 'NPS', required: false, lowerLabel: 'No', upperLabel: 'Yes' },
    {
      id: 'plan',
      type: 'multipleChoiceSingle',
      headline: 'Plan',
      required: false,
      choices: [...choices('Free', 'Pro'), { id: 'other', label: 'Other' }],
    },
    { id: 'tools', type: 'multipleChoiceMulti', headline: 'Tools', required: false, choices: choices('A', 'B', 'C') },
    { id: 'why', type: 'openText', headline: 'Why?', required: false },
    { id: 'cta', type: 'cta', headline: 'Try it', required: false, buttonExternal: false },
    { id: 'ok', type: 'consent', headline: 'Consent', required: false, html: '', label: 'Yes' },
    {
      id: 'stars',
      type: 'rating',
      headline: 'Stars',
      required: true,
      scale: 'star',
      range: 5,
      lowerLabel: 'Bad',
      upperLabel: 'Good',
    },
  ],
};

/** A small deterministic generator, so a failure can be replayed. */
function generator(seed: number) {
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
  return { next, pick };
}

describe.each(dialects)('survey result rollups on %s', (dialect) => {
  let t: SurveyTestApp;
  let surveyId: string;
  const responses: string[] = [];
  const random = generator(31);

  const answers = () => {
    const data: Record<string, unknown> = {};
    const ttc: Record<string, number> = {};
    const maybe = (id: string, values: readonly unknown[]) => {
      const roll = random.next();
      if (roll < 0.6) data[id] = random.pick(values);
      if (roll < 0.8) ttc[id] = random.pick([0, 300, 1200, 4000]);
    };
    maybe('nps', [0, 3, 6, 7, 8, 9, 10, '']);
    maybe('plan', ['Free', 'Pro', 'Something else', '']);
    maybe('tools', [['A'], ['A', 'C'], ['B', 'Mine'], []]);
    maybe('why', ['Because', '', 'skipped']);
    maybe('cta', ['clicked', 'dismissed']);
    maybe('ok', ['accepted', 'dismissed']);
    maybe('stars', [1, 2, 3, 4, 5]);
    if (random.next() < 0.3) data.source = random.pick(['ads', 'mail', '']);
    return { data, ttc };
  };

  const create = async () => {
    const created = await t.request('POST', `${CLIENT}/responses`, {
      surveyId,
      userId: random.next() < 0.5 ? 'rollup-user' : null,
      finished: random.next() < 0.3,
      data: answers().data,
    });
    expect(created.status).toBe(200);
    responses.push(created.body.data.id);
  };
  const update = async (id: string) => {
    const { data, ttc } = answers();
    const updated = await t.request('PUT', `${CLIENT}/responses/${id}`, { finished: random.next() < 0.6, data, ttc });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
  };

  const read = async (path: string, filter: object) => {
    const query = Object.keys(filter).length ? `?filter=${encodeURIComponent(JSON.stringify(filter))}` : '';
    const answer = await t.request('GET', `${CONSOLE}/surveys/${surveyId}/results/${path}${query}`);
    expect(answer.status).toBe(200);
    return answer.body.data;
  };

  /** A tag no response has: the filter then takes every response, but only a scan can answer it. */
  const scanned = (filter: Record<string, unknown>) => ({ ...filter, tags: { notApplied: ['no-such-tag'] } });

  const FILTERS: Record<string, unknown>[] = [
    {},
    { finished: true },
    { finished: false },
    { createdAt: { min: '2026-03-02T00:00:00.000Z' } },
    { createdAt: { max: '2026-03-03T23:59:59.999Z' } },
    { createdAt: { min: '2026-03-02T00:00:00.000Z', max: '2026-03-03T23:59:59.999Z' } },
    { createdAt: { min: '2026-03-01T11:00:00.000Z', max: '2026-03-04T06:30:00.000Z' }, finished: true },
    { createdAt: { min: '2026-03-02T05:00:00.000Z', max: '2026-03-02T20:00:00.000Z' } },
    { createdAt: { min: '2026-03-03T05:00:00.000Z', max: '2026-03-02T20:00:00.000Z' } },
  ];

  async function expectRollupsEqualScans() {
    // The rollups answer (not a scan on both sides) for the survey as it is now.
    const database = await openDatabase(t.database.url, { migrate: false });
    try {
      const survey = await database.db
        .selectFrom('surveys')
        .select('document')
        .where('id', '=', surveyId)
        .executeTakeFirstOrThrow();
      expect(await rollupsCurrent(database, { id: surveyId, ...JSON.parse(survey.document) })).toBe(true);
      // Displays come from the rollups whatever the filter asks of the responses: counted here.
      for (const filter of FILTERS) {
        const summary = await read('summary', scanned(filter));
        expect(summary.meta.displayCount, JSON.stringify(filter)).toBe(await displayCount(database, surveyId, filter));
      }
    } finally {
      await database.close();
    }
    for (const filter of FILTERS) {
      const [summary, scannedSummary] = [await read('summary', filter), await read('summary', scanned(filter))];
      expect(summary, JSON.stringify(filter)).toEqual(scannedSummary);
      const [trends, scannedTrends] = [await read('trends', filter), await read('trends', scanned(filter))];
      expect(trends, JSON.stringify(filter)).toEqual(scannedTrends);
    }
  }

  beforeAll(async () => {
    t = await startSurveyApp(dialect);
    const created = await t.management('POST', '/surveys', SURVEY);
    expect(created.status).toBe(200);
    surveyId = created.body.data.id;
    for (let i = 0; i < 12; i++) await t.request('POST', `${CLIENT}/displays`, { surveyId });
    for (let i = 0; i < 48; i++) await create();
    for (const id of responses.slice(0, 30)) await update(id);
    // Spread the responses and displays over four days, at every hour, behind the store's back; the
    // rollups are then made again as for a survey stored before they existed (fillMissingRollups).
    const database = await openDatabase(t.database.url, { migrate: false });
    try {
      for (const [i, id] of responses.entries()) {
        const at = `2026-03-0${1 + (i % 4)}T${String((i * 7) % 24).padStart(2, '0')}:30:00.${String(i).padStart(6, '0')}Z`;
        await database.db.updateTable('survey_responses').set({ created_at: at }).where('id', '=', id).execute();
      }
      const displays = await database.db
        .selectFrom('survey_displays')
        .select('id')
        .where('survey_id', '=', surveyId)
        .execute();
      for (const [i, { id }] of displays.entries()) {
        const at = `2026-03-0${1 + (i % 4)}T${String((i * 5) % 24).padStart(2, '0')}:00:00.000000Z`;
        await database.db.updateTable('survey_displays').set({ created_at: at }).where('id', '=', id).execute();
      }
      await database.db.deleteFrom('survey_result_rollups').where('survey_id', '=', surveyId).execute();
      await fillMissingRollups(database);
    } finally {
      await database.close();
    }
  });
  afterAll(() => t.close());

  it('answers as the scan does on the responses as the first fill found them', async () => {
    await expectRollupsEqualScans();
  });

  it('keeps answering as the scan does after updates, concurrent ones, deletes and new responses', async () => {
    for (const id of responses.slice(10, 25)) await update(id);
    await Promise.all(responses.slice(20, 40).map((id) => update(id)));
    for (const id of responses.splice(0, 6)) {
      const deleted = await t.request('DELETE', `${CONSOLE}/responses/${id}`);
      expect(deleted.status).toBe(200);
    }
    await Promise.all(Array.from({ length: 6 }, () => create()));
    await Promise.all(Array.from({ length: 3 }, () => t.request('POST', `${CLIENT}/displays`, { surveyId })));
    await expectRollupsEqualScans();
    expect((await read('summary', {})).meta.displayCount).toBe(15);
    // Deleted responses are gone from the counts, not merely moved.
    const all = await read('summary', {});
    expect(all.meta.totalResponses).toBe(responses.length);
  });

  it('exports the same CSV in pages of 7 as in one page, ties in creation time included', async () => {
    const database = await openDatabase(t.database.url, { migrate: false });
    try {
      // Two responses created in the same microsecond: the keyset breaks the tie by id.
      const [first, second] = responses.slice(0, 2);
      const at = '2026-03-02T12:00:00.000000Z';
      await database.db
        .updateTable('survey_responses')
        .set({ created_at: at })
        .where('id', 'in', [first, second])
        .execute();
      const survey = (await new SurveyStore(database, new ChangeFeed()).survey(surveyId))!;
      const csv = async (pageSize: number, filter: ResponseFilter = {}) => {
        let text = '';
        for await (const chunk of exportCsv(database, survey, filter, ['tier'], pageSize)) text += chunk;
        return text;
      };
      const whole = await csv(5000);
      expect(whole.trim().split('\r\n')).toHaveLength(responses.length + 1);
      expect(await csv(7)).toBe(whole);
      expect(await csv(1)).toBe(whole);
      // A date range: each page after the first is bounded by its cursor as well as by the range.
      const days = { createdAt: { min: '2026-03-02T00:00:00.000Z', max: '2026-03-03T23:59:59.999Z' } };
      const inRange = await csv(5000, days);
      const withoutNumber = (text: string) =>
        text
          .trim()
          .split('\r\n')
          .slice(1)
          .map((row) => row.slice(row.indexOf(',')));
      const expected = withoutNumber(whole).filter((row) => /^,[^,]+,2026-03-0[23]T/.test(row));
      expect(expected.length).toBeGreaterThan(10);
      expect(withoutNumber(inRange)).toEqual(expected);
      expect(await csv(7, days)).toBe(inRange);
      expect(await csv(1, days)).toBe(inRange);
    } finally {
      await database.close();
    }
  });

  it('makes the rollups again when the survey changes what its patterns read', async () => {
    const changed = {
      ...SURVEY,
      questions: SURVEY.questions.map((question) =>
        question.id === 'plan' ? { ...question, choices: [...choices('Free', 'Pro', 'Something else')] } : question,
      ),
    };
    const saved = await t.management('PUT', `/surveys/${surveyId}`, changed);
    expect(saved.status).toBe(200);
    await expectRollupsEqualScans();
    const plan = (await read('summary', {})).questions[1];
    expect(plan.choices.map((choice: { value: string }) => choice.value)).toEqual(['Free', 'Pro', 'Something else']);
  });
});
