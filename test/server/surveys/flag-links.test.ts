import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api } from '../evaluation/api.js';
import { dialects } from '../support.js';
import { CLIENT, type SurveyTestApp, startSurveyApp } from './support.js';

const question = {
  id: 'nps',
  type: 'nps',
  headline: 'How likely?',
  required: true,
  lowerLabel: 'No',
  upperLabel: 'Yes',
};
const analyticsOf = async (api: Api, flagKey: string) => {
  const minute = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
  const range = `from=${encodeURIComponent(minute(Date.now() - 3_600_000))}&to=${encodeURIComponent(minute(Date.now() + 60_000))}`;
  const series = await api.ok('GET', `/internal/v1/analytics/namespaces/default/flags/${flagKey}?${range}`);
  return (series.values as number[]).reduce((sum, value) => sum + value, 0);
};
const evaluationsCounted = async (t: SurveyTestApp) => {
  const text = (await t.request('GET', '/metrics')).body as string;
  return text
    .split('\n')
    .filter((line) => line.startsWith('flipt_evaluations_requests_total'))
    .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
};

describe.each(dialects)('surveys linked to flags and segments on %s', (dialect) => {
  let t: SurveyTestApp;
  let api: Api;
  beforeAll(async () => {
    t = await startSurveyApp(dialect);
    api = new Api(t.app);
    await api.flag('default', 'checkout');
    const a = await api.variant('default', 'checkout', 'a');
    const b = await api.variant('default', 'checkout', 'b');
    await api.segment('default', 'everyone', []);
    await api.rule(
      'default',
      'checkout',
      ['everyone'],
      [
        [a.id, 50],
        [b.id, 50],
      ],
      1,
    );
    await api.flag('default', 'beta', 'BOOLEAN_FLAG_TYPE');
    await api.segment('default', 'pro', [['STRING_COMPARISON_TYPE', 'plan', 'eq', 'pro']]);
  });
  afterAll(() => t.close());

  const createSurvey = (body: Record<string, unknown>) =>
    t.management('POST', '/surveys', { name: 'Linked', questions: [question], triggers: ['Linked action'], ...body });
  const syncedIds = async (userId: string) =>
    (
      (await t.request('GET', `${CLIENT}/in-app/sync/${userId}?version=1.6.5`)).body.data.surveys as { id: string }[]
    ).map((survey) => survey.id);

  it('refuses links to a flag, variant or segment the namespace lacks, naming it', async () => {
    const noFlag = await createSurvey({ linkedFlag: { flagKey: 'nope', variants: ['a'] } });
    expect(noFlag.status).toBe(400);
    expect(noFlag.body.message).toBe('flag "nope" not found in namespace "default"');
    const noVariant = await createSurvey({ linkedFlag: { flagKey: 'checkout', variants: ['a', 'z'] } });
    expect(noVariant.status).toBe(400);
    expect(noVariant.body.message).toBe('variant "z" not found in flag "checkout"');
    const booleanValue = await createSurvey({ linkedFlag: { flagKey: 'beta', variants: ['on'] } });
    expect(booleanValue.status).toBe(400);
    expect(booleanValue.body.message).toContain('use enabled or disabled');
    const noSegment = await createSurvey({ segmentKey: 'ghosts' });
    expect(noSegment.status).toBe(400);
    expect(noSegment.body.message).toBe('segment "ghosts" not found in namespace "default"');
    const empty = await createSurvey({ linkedFlag: { flagKey: 'checkout', variants: [] } });
    expect(empty.status).toBe(400);
  });

  it('syncs a survey linked to variant b exactly to the visitors the flag gives b, uncounted', async () => {
    const created = await createSurvey({ name: 'Only b', linkedFlag: { flagKey: 'checkout', variants: ['b'] } });
    expect(created.status).toBe(200);
    const id = created.body.data.id as string;
    expect(created.body.data.linkedFlag).toEqual({ flagKey: 'checkout', variants: ['b'] });

    const anonymous = (await t.request('GET', `${CLIENT}/in-app/sync`)).body.data.surveys as { id: string }[];
    expect(anonymous.map((survey) => survey.id)).not.toContain(id);

    const countedBefore = await evaluationsCounted(t);
    const analyticsBefore = await analyticsOf(api, 'checkout');
    const shown = new Map<string, boolean>();
    for (let i = 0; i < 40; i++) shown.set(`visitor-${i}`, (await syncedIds(`visitor-${i}`)).includes(id));
    expect(await evaluationsCounted(t)).toBe(countedBefore);
    expect(await analyticsOf(api, 'checkout')).toBe(analyticsBefore);

    let variantB = 0;
    for (const [userId, included] of shown) {
      const answer = await api.ok('POST', '/evaluate/v1/variant', {
        flagKey: 'checkout',
        entityId: userId,
        context: {},
      });
      expect(included, userId).toBe(answer.variantKey === 'b');
      if (included) variantB++;
    }
    expect(variantB).toBeGreaterThan(5);
    expect(variantB).toBeLessThan(35);
  });

  it('records the variant and reason at display time on the display and its response', async () => {
    const created = await createSurvey({
      name: 'Both variants',
      linkedFlag: { flagKey: 'checkout', variants: ['a', 'b'] },
    });
    const surveyId = created.body.data.id as string;
    const userId = 'recorded-visitor';
    const expected = await api.ok('POST', '/evaluate/v1/variant', {
      flagKey: 'checkout',
      entityId: userId,
      context: {},
    });
    const display = await t.request('POST', `${CLIENT}/displays`, { surveyId, userId });
    expect(display.status).toBe(200);
    const response = await t.request('POST', `${CLIENT}/responses`, {
      surveyId,
      userId,
      finished: true,
      data: { nps: 9 },
    });
    expect(response.status).toBe(200);
    const flag = { flagKey: 'checkout', variant: expected.variantKey, reason: 'MATCH_EVALUATION_REASON' };
    const displays = (await t.management('GET', `/displays?surveyId=${surveyId}`)).body.data as {
      flag: unknown;
      surveyId: string;
    }[];
    expect(displays.filter((d) => d.surveyId === surveyId).map((d) => d.flag)).toEqual([flag]);
    const stored = await t.management('GET', `/responses/${response.body.data.id}`);
    expect(stored.body.data.flag).toEqual(flag);
  });

  it('reads the results by variant: counts and scores from the answers each variant gave, filterable', async () => {
    const created = await createSurvey({
      name: 'By variant',
      linkedFlag: { flagKey: 'checkout', variants: ['a', 'b'] },
    });
    const surveyId = created.body.data.id as string;
    const scores = new Map<string, number[]>([
      ['a', []],
      ['b', []],
    ]);
    for (let i = 0; i < 30; i++) {
      const userId = `scored-${i}`;
      const { variantKey } = await api.ok('POST', '/evaluate/v1/variant', {
        flagKey: 'checkout',
        entityId: userId,
        context: {},
      });
      expect((await t.request('POST', `${CLIENT}/displays`, { surveyId, userId })).status).toBe(200);
      if (i % 5 === 4) continue; // seen, not answered
      const score = variantKey === 'a' ? 10 - (i % 3) : i % 10;
      scores.get(variantKey)!.push(score);
      const answered = await t.request('POST', `${CLIENT}/responses`, {
        surveyId,
        userId,
        finished: true,
        data: { nps: score },
      });
      expect(answered.status).toBe(200);
    }
    const environment = (await t.request('GET', '/api/v1/namespaces/default/surveys/environments')).body
      .environments[0];
    const url = `/api/v1/namespaces/default/surveys/environments/${environment.id}/surveys/${surveyId}/results/by-variant`;
    const answer = await t.request('GET', url);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data.flagKey).toBe('checkout');
    for (const entry of answer.body.data.values) {
      const given = scores.get(entry.value)!;
      const promoters = given.filter((score) => score >= 9).length;
      const detractors = given.filter((score) => score <= 6).length;
      expect(entry.meta.totalResponses, entry.value).toBe(given.length);
      expect(entry.scores[0].estimate.n).toBe(given.length);
      expect(entry.scores[0].estimate.value).toBeCloseTo(((promoters - detractors) / given.length) * 100, 2);
    }
    expect(answer.body.data.values.map((entry: { value: string }) => entry.value).sort()).toEqual(['a', 'b']);
    const displays = answer.body.data.values.reduce((sum: number, entry: any) => sum + entry.meta.displayCount, 0);
    expect(displays).toBe(30);

    const onlyB = await t.request('GET', `${url}?filter=${encodeURIComponent(JSON.stringify({ flagValues: ['b'] }))}`);
    expect(onlyB.body.data.values.map((entry: { value: string }) => entry.value)).toEqual(['b']);
    const list = await t.request(
      'GET',
      `${url.replace('/by-variant', '/responses')}?filter=${encodeURIComponent(JSON.stringify({ flagValues: ['b'] }))}`,
    );
    expect(list.body.data.length).toBe(scores.get('b')!.length);
    const csv = (await t.request('GET', url.replace('/by-variant', '/export.csv'))).body as string;
    const [header, ...lines] = csv.trim().split('\r\n');
    expect(header.endsWith(',checkout (flag)')).toBe(true);
    const exported = lines.map((line) => line.split(',').at(-1)).sort();
    const answered = [...scores].flatMap(([variant, given]) => given.map(() => variant)).sort();
    expect(exported).toEqual(answered);
    const unlinked = await createSurvey({ name: 'Unlinked' });
    const refused = await t.request('GET', url.replace(surveyId, unlinked.body.data.id));
    expect(refused.status).toBe(400);
  });

  it('targets a Flipt segment by the visitor attributes, as the engine matches it', async () => {
    await api.flag('default', 'pro-probe', 'BOOLEAN_FLAG_TYPE', false);
    await api.ok('POST', '/api/v1/namespaces/default/flags/pro-probe/rollouts', {
      rank: 1,
      segment: { segmentKey: 'pro', value: true },
    });
    const created = await createSurvey({ name: 'Pro only', segmentKey: 'pro' });
    const id = created.body.data.id as string;
    const plans = ['pro', 'free', 'Pro', ' pro', 'pro ', '', 'enterprise'];
    for (let i = 0; i < 28; i++) {
      const userId = `segment-visitor-${i}`;
      const plan = plans[(i * 5 + 3) % plans.length];
      const attributes = i % 7 === 6 ? { seats: '3' } : { plan };
      expect((await t.request('POST', `${CLIENT}/people/${userId}`, { attributes })).status).toBe(200);
      const engine = await api.ok('POST', '/evaluate/v1/boolean', {
        flagKey: 'pro-probe',
        entityId: userId,
        context: attributes,
      });
      expect((await syncedIds(userId)).includes(id), `${userId} ${JSON.stringify(attributes)}`).toBe(engine.enabled);
    }
  });

  it('targets generated segments exactly as the engine matches generated attributes', async () => {
    // A seeded generator (mulberry32): the same cases on every run, and a failure names its case.
    let seed = 20261126;
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
      return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
    };
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
    const VALUES: Record<string, string[]> = {
      plan: ['pro', 'free', 'Pro', ''],
      seats: ['1', '3', '10', 'x'],
      beta: ['true', 'false', 'yes'],
      region: ['eu', 'us', 'eu-west'],
    };
    const constraint = (): [string, string, string, string?] => {
      const property = pick(Object.keys(VALUES));
      const kind = pick(['STRING', 'NUMBER', 'BOOLEAN']);
      if (kind === 'NUMBER')
        return [
          'NUMBER_COMPARISON_TYPE',
          property,
          pick(['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'present', 'notpresent']),
          pick(['1', '3', '5']),
        ];
      if (kind === 'BOOLEAN')
        return ['BOOLEAN_COMPARISON_TYPE', property, pick(['true', 'false', 'present', 'notpresent'])];
      const operator = pick(['eq', 'neq', 'prefix', 'suffix', 'isoneof', 'isnotoneof', 'empty', 'notempty']);
      const value = operator.endsWith('oneof')
        ? JSON.stringify([pick(VALUES[property]), pick(VALUES[property])])
        : pick(VALUES[property]);
      return ['STRING_COMPARISON_TYPE', property, operator, value];
    };
    let matched = 0;
    let checked = 0;
    for (let s = 0; s < 6; s++) {
      const segmentKey = `generated-${s}`;
      const constraints = Array.from({ length: 1 + Math.floor(random() * 3) }, constraint);
      const matchType = pick(['ALL_MATCH_TYPE', 'ANY_MATCH_TYPE']);
      await api.segment('default', segmentKey, constraints, matchType);
      await api.flag('default', `${segmentKey}-probe`, 'BOOLEAN_FLAG_TYPE', false);
      await api.ok('POST', `/api/v1/namespaces/default/flags/${segmentKey}-probe/rollouts`, {
        rank: 1,
        segment: { segmentKey, value: true },
      });
      const id = (await createSurvey({ name: `Segment ${s}`, segmentKey })).body.data.id as string;
      for (let v = 0; v < 12; v++) {
        const userId = `${segmentKey}-visitor-${v}`;
        const attributes = Object.fromEntries(
          Object.entries(VALUES)
            .filter(() => random() < 0.7)
            .map(([property, values]) => [property, pick(values)]),
        );
        expect((await t.request('POST', `${CLIENT}/people/${userId}`, { attributes })).status).toBe(200);
        const engine = await api.ok('POST', '/evaluate/v1/boolean', {
          flagKey: `${segmentKey}-probe`,
          entityId: userId,
          context: attributes,
        });
        const shown = (await syncedIds(userId)).includes(id);
        expect(shown, `${matchType} ${JSON.stringify(constraints)} for ${JSON.stringify(attributes)}`).toBe(
          engine.enabled,
        );
        checked++;
        if (shown) matched++;
      }
    }
    // The generated cases go both ways.
    expect(matched).toBeGreaterThan(5);
    expect(checked - matched).toBeGreaterThan(5);
  });

  it('refuses deleting a flag or segment that a survey links, naming the survey', async () => {
    await api.flag('default', 'kept');
    await api.variant('default', 'kept', 'on');
    await api.segment('default', 'kept-segment', []);
    await createSurvey({
      name: 'Keeps them',
      linkedFlag: { flagKey: 'kept', variants: ['on'] },
      segmentKey: 'kept-segment',
    });
    const flag = await api.call('DELETE', '/api/v1/namespaces/default/flags/kept');
    expect(flag.status).toBe(400);
    expect(flag.body.message).toBe('flag "default/kept" is linked to surveys: "Keeps them"');
    const segment = await api.call('DELETE', '/api/v1/namespaces/default/segments/kept-segment');
    expect(segment.status).toBe(400);
    expect(segment.body.message).toBe('segment "default/kept-segment" is linked to surveys: "Keeps them"');
    expect((await api.call('GET', '/api/v1/namespaces/default/flags/kept')).status).toBe(200);
  });
});
