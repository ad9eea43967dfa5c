import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api } from '../evaluation/api.js';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../server/app.js';
import { asToken, startAuthApp } from '../auth/helpers.js';
import { dialects, postgresUrl } from '../support.js';
import { CLIENT, ENV, type SurveyTestApp, startSurveyApp } from '../surveys/support.js';

const questions = [
  { id: 'nps', type: 'nps', headline: 'How likely?', required: true, lowerLabel: 'No', upperLabel: 'Yes' },
  {
    id: 'broken',
    type: 'multipleChoiceSingle',
    headline: 'Broken?',
    required: false,
    choices: [
      { id: 'y', label: 'Yes' },
      { id: 'n', label: 'No' },
    ],
  },
  { id: 'why', type: 'openText', headline: 'Why?', required: false },
];

describe.each(dialects)('feedback guards on %s', (dialect) => {
  let t: SurveyTestApp;
  let api: Api;
  const guards = (flagKey: string) => `/api/v1/namespaces/default/flags/${flagKey}/guards`;

  /** A 50/50 flag with a survey linked to both variants. */
  async function guardedFlag(flagKey: string) {
    await api.flag('default', flagKey);
    const a = await api.variant('default', flagKey, 'a');
    const b = await api.variant('default', flagKey, 'b');
    await api.rule(
      'default',
      flagKey,
      ['everyone'],
      [
        [a.id, 50],
        [b.id, 50],
      ],
      1,
    );
    const survey = await t.management('POST', '/surveys', {
      name: `Guarding ${flagKey}`,
      questions,
      triggers: ['Guarded action'],
      linkedFlag: { flagKey, variants: ['a', 'b'] },
    });
    expect(survey.status, JSON.stringify(survey.body)).toBe(200);
    return survey.body.data.id as string;
  }

  /** Visitors shown the survey and answering: those the flag gives `b` score `bScore`, the others 9 or 10. */
  async function answer(flagKey: string, surveyId: string, visitors: number, bScore: (i: number) => number) {
    const given = { a: 0, b: 0, bResponses: [] as string[] };
    for (let i = 0; i < visitors; i++) {
      const userId = `${flagKey}-visitor-${i}`;
      const { variantKey } = await api.ok('POST', '/evaluate/v1/variant', { flagKey, entityId: userId, context: {} });
      given[variantKey as 'a' | 'b']++;
      expect((await t.request('POST', `${CLIENT}/displays`, { surveyId, userId })).status).toBe(200);
      const nps = variantKey === 'b' ? bScore(i) : 9 + (i % 2);
      const response = await t.request('POST', `${CLIENT}/responses`, {
        surveyId,
        userId,
        finished: true,
        data: { nps },
      });
      expect(response.status).toBe(200);
      if (variantKey === 'b') given.bResponses.push(response.body.data.id);
    }
    return given;
  }

  const guardBody = (surveyId: string, extra: Record<string, unknown> = {}) => ({
    surveyId,
    environmentId: ENV,
    questionId: 'nps',
    baseline: 'a',
    minimumRegression: 10,
    action: 'ROLLBACK',
    minimumSample: 10,
    ...extra,
  });

  beforeAll(async () => {
    t = await startSurveyApp(dialect, (config) => {
      config.metrics.enabled = true;
    });
    api = new Api(t.app);
    await api.segment('default', 'everyone', []);
  });
  afterAll(() => t.close());

  it('refuses a guard that does not fit its flag and survey, naming what', async () => {
    const surveyId = await guardedFlag('refusals');
    const unlinked = await t.management('POST', '/surveys', { name: 'Unlinked', questions, triggers: ['Other'] });
    const refusal = async (body: Record<string, unknown>) => {
      const answer = await api.call('POST', guards('refusals'), body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      return answer.body.message as string;
    };
    expect(await refusal(guardBody('nope'))).toBe('survey "nope" not found');
    expect(await refusal(guardBody(unlinked.body.data.id))).toBe(
      `survey "${unlinked.body.data.id}" is not linked to flag "refusals"`,
    );
    expect(await refusal(guardBody(surveyId, { questionId: 'ghost' }))).toBe(
      `question "ghost" not found in survey "${surveyId}"`,
    );
    expect(await refusal(guardBody(surveyId, { questionId: 'why' }))).toContain('is a openText question');
    expect(await refusal(guardBody(surveyId, { questionId: 'broken' }))).toContain('name the choice');
    expect(await refusal(guardBody(surveyId, { questionId: 'broken', answer: 'Maybe' }))).toBe(
      'answer "Maybe" is not a choice of question "broken"',
    );
    expect(await refusal(guardBody(surveyId, { baseline: 'z' }))).toBe('variant "z" not found in flag "refusals"');
    expect(await refusal(guardBody(surveyId, { environmentId: 'elsewhere' }))).toBe(
      `survey "${surveyId}" is not in environment "elsewhere"`,
    );
    expect(await refusal(guardBody(surveyId, { action: 'PANIC' }))).toContain('must be ALERT or ROLLBACK');
    expect(await refusal(guardBody(surveyId, { minimumRegression: 0 }))).toContain('must be greater than 0');
    expect((await api.call('POST', guards('no-such-flag'), guardBody(surveyId))).status).toBe(404);
    expect((await api.ok('GET', guards('refusals'))).guards).toEqual([]);
  });

  it('keeps each arm from the writes: displays, answers, an edited and a deleted response', async () => {
    const surveyId = await guardedFlag('sums');
    const given = await answer('sums', surveyId, 12, () => 3);
    const guard = await api.ok('POST', guards('sums'), guardBody(surveyId, { action: 'ALERT' }));
    const arms = () =>
      api
        .ok('GET', `${guards('sums')}/${guard.id}`)
        .then((read) => Object.fromEntries(read.arms.map((arm: { key: string }) => [arm.key, arm])));
    expect(guard.state).toBe('COLLECTING');
    expect(guard.reason).toContain('needs 10 answers per arm');
    let read = await arms();
    expect(read.a.displays + read.b.displays).toBe(12);
    expect(read.a.responses).toBe(given.a);
    expect(read.b.responses).toBe(given.b);
    expect(read.b.estimate).toBe(-100);

    // One more visitor after the guard exists: counted by the writes, not a rescan.
    await answer('sums', surveyId, 13, () => 3);
    read = await arms();
    expect(read.a.displays + read.b.displays).toBe(25);
    expect(read.a.responses + read.b.responses).toBe(25);

    // A response changed to a promoter, then deleted.
    const onB = { id: given.bResponses[0] };
    const before = (await arms()).b;
    expect(
      (await t.request('PUT', `${CLIENT}/responses/${onB.id}`, { finished: true, data: { nps: 10 } })).status,
    ).toBe(200);
    const edited = (await arms()).b;
    expect(edited.responses).toBe(before.responses);
    expect(edited.estimate).toBeCloseTo(before.estimate + 200 / before.responses, 6);
    expect((await t.management('DELETE', `/responses/${onB.id}`)).status).toBe(200);
    expect((await arms()).b.responses).toBe(before.responses - 1);

    // A response begun without the guarded answer counts once the answer comes; an answer to another question
    // leaves the arm as it is.
    const userId = 'sums-late-answer';
    const { variantKey } = await api.ok('POST', '/evaluate/v1/variant', { flagKey: 'sums', entityId: userId });
    await t.request('POST', `${CLIENT}/displays`, { surveyId, userId });
    const begun = await t.request('POST', `${CLIENT}/responses`, {
      surveyId,
      userId,
      finished: false,
      data: { why: 'slow' },
    });
    const unanswered = (await arms())[variantKey];
    expect(unanswered.displays).toBe(read[variantKey].displays + 1);
    expect(unanswered.responses).toBe(read[variantKey].responses - (variantKey === 'b' ? 1 : 0));
    const late = `${CLIENT}/responses/${begun.body.data.id}`;
    expect((await t.request('PUT', late, { finished: false, data: { nps: 0 } })).status).toBe(200);
    const answered = (await arms())[variantKey];
    expect(answered.responses).toBe(unanswered.responses + 1);
    expect(answered.estimate * answered.responses).toBeCloseTo(unanswered.estimate * unanswered.responses - 100, 6);
    expect((await t.request('PUT', late, { finished: true, data: { broken: 'No' } })).status).toBe(200);
    expect((await arms())[variantKey]).toEqual(answered);
  });

  it('reads a choice question as the share of one answer, the same from the stored responses as from the writes', async () => {
    const surveyId = await guardedFlag('shares');
    const respond = async (i: number) => {
      const userId = `shares-visitor-${i}`;
      await t.request('POST', `${CLIENT}/displays`, { surveyId, userId });
      const broken = i % 3 === 0 ? 'Yes' : i % 3 === 1 ? 'No' : undefined;
      await t.request('POST', `${CLIENT}/responses`, {
        surveyId,
        userId,
        finished: true,
        data: broken ? { broken } : { nps: 5 },
      });
    };
    for (let i = 0; i < 12; i++) await respond(i);
    const guard = await api.ok('POST', guards('shares'), guardBody(surveyId, { questionId: 'broken', answer: 'Yes' }));
    const total = (read: { arms: { responses: number; estimate: number | null; displays: number }[] }) => ({
      displays: read.arms.reduce((sum, arm) => sum + arm.displays, 0),
      responses: read.arms.reduce((sum, arm) => sum + arm.responses, 0),
      yes: read.arms.reduce((sum, arm) => sum + (arm.estimate ?? 0) * arm.responses, 0),
    });
    expect(total(guard)).toEqual({ displays: 12, responses: 8, yes: 4 });
    for (let i = 12; i < 18; i++) await respond(i);
    const written = total(await api.ok('GET', `${guards('shares')}/${guard.id}`));
    expect(written).toEqual({ displays: 18, responses: 12, yes: 6 });
    // Saving the guard again reads the stored responses anew: the same sums.
    const saved = await api.ok(
      'PUT',
      `${guards('shares')}/${guard.id}`,
      guardBody(surveyId, { questionId: 'broken', answer: 'Yes' }),
    );
    expect(total(saved)).toEqual(written);
  });

  it('rolls a regressed variant back to the baseline once, as a change by "guard" that Revert undoes', async () => {
    const surveyId = await guardedFlag('checkout');
    const guard = await api.ok('POST', guards('checkout'), guardBody(surveyId));
    expect(guard).toMatchObject({
      baseline: 'a',
      action: 'ROLLBACK',
      errorRate: 0.05,
      state: 'COLLECTING',
      actedAt: null,
    });
    await answer('checkout', surveyId, 50, (i) => i % 4);

    await expect
      .poll(async () => (await api.ok('GET', `${guards('checkout')}/${guard.id}`)).actedAt, { timeout: 5000 })
      .not.toBeNull();
    const tripped = await api.ok('GET', `${guards('checkout')}/${guard.id}`);
    expect(tripped.state).toBe('REGRESSED');
    expect(tripped.difference.upper).toBeLessThan(0);
    // The variants 30 visitors get, sorted. actedAt is the claim to act (once, whichever instance); the
    // rollback is written right after it.
    const served = async (prefix: string) => {
      const variants = new Set<string>();
      for (let i = 0; i < 30; i++) {
        const body = { flagKey: 'checkout', entityId: `${prefix}-${i}`, context: {} };
        variants.add((await api.ok('POST', '/evaluate/v1/variant', body)).variantKey);
      }
      return [...variants].sort();
    };
    await expect.poll(() => served('after'), { timeout: 2000 }).toEqual(['a']);

    const synced = await t.request('GET', `${CLIENT}/in-app/sync/after-trip-visitor?version=1.6.5`);
    expect(synced.body.data.surveys.map((s: { id: string }) => s.id)).toContain(surveyId);
    const history = await api.ok('GET', '/api/v1/namespaces/default/history?entityType=flag&entityKey=checkout');
    const byGuard = history.entries.filter((entry: { actor: string }) => entry.actor === 'guard');
    expect(byGuard).toHaveLength(1);
    expect(byGuard[0].payload.guard.reason).toMatch(/^b answers worse than a: -\d/);
    expect(byGuard[0].payload.guard.action).toBe('ROLLBACK');
    const metrics = (await t.request('GET', '/metrics')).body as string;
    expect(metrics).toContain(
      `ensign_guard_state{namespace="default",flag="checkout",guard="${guard.id}",state="REGRESSED"} 1`,
    );

    // More answers do not act again; Revert restores the 50/50 split.
    await answer('checkout', surveyId, 10, () => 0);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    const again = await api.ok('GET', '/api/v1/namespaces/default/history?entityType=flag&entityKey=checkout');
    expect(again.entries.filter((entry: { actor: string }) => entry.actor === 'guard')).toHaveLength(1);
    expect((await api.call('POST', `/api/v1/namespaces/default/history/${byGuard[0].id}/revert`)).status).toBe(200);
    expect(await served('reverted')).toEqual(['a', 'b']);
  });

  it('holds back on a healthy variant and deletes a guard', async () => {
    const surveyId = await guardedFlag('healthy');
    const guard = await api.ok('POST', guards('healthy'), guardBody(surveyId, { minimumRegression: 150 }));
    await answer('healthy', surveyId, 44, (i) => 9 + (i % 2));
    await expect
      .poll(async () => (await api.ok('GET', `${guards('healthy')}/${guard.id}`)).state, { timeout: 5000 })
      .toBe('HEALTHY');
    expect((await api.ok('GET', `${guards('healthy')}/${guard.id}`)).actedAt).toBeNull();
    expect((await api.call('DELETE', `${guards('healthy')}/${guard.id}`)).status).toBe(200);
    expect((await api.call('GET', `${guards('healthy')}/${guard.id}`)).status).toBe(404);
  });
});

describe.skipIf(!postgresUrl)('a feedback guard on two instances of one PostgreSQL database', () => {
  let t: SurveyTestApp;
  let other: FastifyInstance;
  beforeAll(async () => {
    t = await startSurveyApp('postgres');
    other = await buildApp(t.config);
    await other.ready();
  });
  afterAll(async () => {
    await other?.close();
    await t?.close();
  });

  it('acts once, and both instances serve the rollback within 2 s of the trip', async () => {
    const api = new Api(t.app);
    const otherApi = new Api(other);
    await api.segment('default', 'everyone', []);
    await api.flag('default', 'shared');
    const a = await api.variant('default', 'shared', 'a');
    const b = await api.variant('default', 'shared', 'b');
    await api.rule(
      'default',
      'shared',
      ['everyone'],
      [
        [a.id, 50],
        [b.id, 50],
      ],
      1,
    );
    const survey = await t.management('POST', '/surveys', {
      name: 'Shared',
      questions,
      triggers: ['Shared action'],
      linkedFlag: { flagKey: 'shared', variants: ['a', 'b'] },
    });
    const surveyId = survey.body.data.id as string;
    const url = '/api/v1/namespaces/default/flags/shared/guards';
    const guard = await otherApi.ok('POST', url, {
      surveyId,
      environmentId: ENV,
      questionId: 'nps',
      baseline: 'a',
      minimumRegression: 10,
      action: 'ROLLBACK',
      minimumSample: 10,
    });
    for (let i = 0; i < 50; i++) {
      const userId = `shared-${i}`;
      const { variantKey } = await api.ok('POST', '/evaluate/v1/variant', {
        flagKey: 'shared',
        entityId: userId,
        context: {},
      });
      await t.request('POST', `${CLIENT}/displays`, { surveyId, userId });
      const nps = variantKey === 'b' ? i % 4 : 10;
      await t.request('POST', `${CLIENT}/responses`, { surveyId, userId, finished: true, data: { nps } });
    }
    await expect
      .poll(async () => (await api.ok('GET', `${url}/${guard.id}`)).actedAt, { timeout: 5000 })
      .not.toBeNull();
    const actedAt = Date.parse((await otherApi.ok('GET', `${url}/${guard.id}`)).actedAt);
    for (const instance of [api, otherApi]) {
      for (;;) {
        const served = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            instance.ok('POST', '/evaluate/v1/variant', { flagKey: 'shared', entityId: `probe-${i}`, context: {} }),
          ),
        );
        if (served.every((answer) => answer.variantKey === 'a')) break;
        expect(Date.now() - actedAt).toBeLessThan(2000);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 1200));
    const history = await api.ok('GET', '/api/v1/namespaces/default/history?entityType=flag&entityKey=shared');
    expect(history.entries.filter((entry: { actor: string }) => entry.actor === 'guard')).toHaveLength(1);
  });
});

describe.each(dialects)('guard writes held back on %s', (dialect) => {
  it('refuses guard writes in read-only mode, and keeps a scoped token to its namespace', async () => {
    const readOnly = await startSurveyApp(dialect, (config) => {
      config.storage.readOnly = true;
    });
    try {
      const url = '/api/v1/namespaces/default/flags/any/guards';
      const write = await new Api(readOnly.app).call('POST', url, { surveyId: 's' });
      expect(write.status).not.toBe(200);
      expect(write.body.message).toBe('not implemented');
    } finally {
      await readOnly.close();
    }
    const bootstrap = 'guards-bootstrap-token';
    const auth = await startAuthApp(dialect, {
      required: true,
      methods: { token: { enabled: true, bootstrap: { token: bootstrap } } },
    });
    try {
      const created = await asToken(auth.app, bootstrap, {
        method: 'POST',
        url: '/auth/v1/method/token',
        payload: { name: 'team-a', namespaceKey: 'team-a' },
      });
      const scoped = created.json().clientToken as string;
      const other = await asToken(auth.app, scoped, {
        method: 'GET',
        url: '/api/v1/namespaces/default/flags/f/guards',
      });
      expect(other.statusCode).toBe(401);
      const own = await asToken(auth.app, scoped, { method: 'GET', url: '/api/v1/namespaces/team-a/flags/f/guards' });
      expect(own.statusCode).toBe(404);
    } finally {
      await auth.close();
    }
  });
});
