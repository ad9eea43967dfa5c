import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support.js';
import { API_KEY, CLIENT, ENV, startSurveyApp, type SurveyTestApp } from './support.js';

const SURVEY_KEYS = [
  'id',
  'createdAt',
  'updatedAt',
  'name',
  'type',
  'environmentId',
  'createdBy',
  'status',
  'displayOption',
  'autoClose',
  'triggers',
  'inlineTriggers',
  'redirectUrl',
  'recontactDays',
  'welcomeCard',
  'questions',
  'thankYouCard',
  'hiddenFields',
  'delay',
  'autoComplete',
  'closeOnDate',
  'productOverwrites',
  'styling',
  'surveyClosedMessage',
  'segment',
  'singleUse',
  'verifyEmail',
  'pin',
  'resultShareKey',
  'displayPercentage',
];

const simpleSurvey = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  status: 'inProgress',
  triggers: ['Targeting'],
  questions: [{ id: 'q1', type: 'openText', headline: 'Hello?', required: true }],
  ...extra,
});

describe.each(dialects)('survey client API on %s', (dialect) => {
  let t: SurveyTestApp;
  beforeAll(async () => {
    t = await startSurveyApp(dialect);
  });
  afterAll(() => t.close());

  it('syncs an anonymous visitor: every running web survey with every key, the no-code action classes and the product', async () => {
    const { status, body, headers } = await t.request('GET', `${CLIENT}/in-app/sync?version=1.6.5`, undefined, {
      origin: 'http://shop.example',
    });
    expect(status).toBe(200);
    expect(headers['access-control-allow-origin']).toBe('*');
    expect(headers['cache-control']).toBe('no-cache');
    expect(headers.etag).toMatch(/^"[-_A-Za-z0-9]+"$/);
    expect(body.data.person).toBeNull();
    const names = body.data.surveys.map((s: { name: string }) => s.name);
    expect(names).toEqual(
      expect.arrayContaining(['Welcome (New Session)', 'Every question type (Code Action)', 'Pricing page (page URL)']),
    );
    for (const survey of body.data.surveys) {
      expect(Object.keys(survey).sort()).toEqual([...SURVEY_KEYS].sort());
      expect(survey.id).toMatch(/^c[a-z0-9]{8,}$/);
    }
    const allTypes = body.data.surveys.find((s: { name: string }) => s.name.startsWith('Every question type'));
    expect(new Set(allTypes.questions.map((q: { type: string }) => q.type))).toEqual(
      new Set([
        'openText',
        'multipleChoiceSingle',
        'multipleChoiceMulti',
        'nps',
        'cta',
        'rating',
        'consent',
        'pictureSelection',
        'date',
        'fileUpload',
        'cal',
      ]),
    );
    expect(body.data.noCodeActionClasses.map((a: { name: string }) => a.name).sort()).toEqual([
      'Clicked feedback button',
      'Visited pricing',
    ]);
    expect(body.data.product).toMatchObject({
      brandColor: '#0f766e',
      placement: 'bottomRight',
      recontactDays: 0,
      inAppSurveyBranding: true,
    });
    expect(body.data.product.environments).toEqual([expect.objectContaining({ id: ENV, widgetSetupCompleted: true })]);
  });

  it('rejects a malformed environment id with 400 and an unknown one with 404, as JSON with CORS', async () => {
    const bad = await t.request('GET', '/api/v1/client/not-a-cuid/in-app/sync');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      code: 'bad_request',
      message: 'Fields are missing or incorrectly formatted',
      details: { environmentId: 'Invalid cuid' },
    });
    const unknown = await t.request('GET', '/api/v1/client/cunknownenvironment00000/in-app/sync');
    expect(unknown.status).toBe(404);
    expect(unknown.headers['access-control-allow-origin']).toBe('*');
    expect(unknown.body).toMatchObject({ code: 'not_found', message: 'Environment not found' });
    const noRoute = await t.request('GET', `${CLIENT}/nothing-here`);
    expect(noRoute.status).toBe(404);
    expect(noRoute.body.code).toBe('not_found');
    expect(noRoute.headers['access-control-allow-origin']).toBe('*');
  });

  it('answers every preflight with 200 and the headers the widget and the signed upload send', async () => {
    for (const url of [
      `${CLIENT}/responses`,
      `${CLIENT}/responses/cabcdefgh123`,
      `${CLIENT}/storage/local`,
      `${CLIENT}/people/u-1`,
    ]) {
      const response = await t.app.inject({
        method: 'OPTIONS',
        url,
        headers: {
          origin: 'http://shop.example',
          'access-control-request-method': 'PUT',
          'access-control-request-headers': 'content-type,x-signature',
        },
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['access-control-allow-origin']).toBe('*');
      expect(String(response.headers['access-control-allow-methods'])).toContain('PUT');
      expect(String(response.headers['access-control-allow-headers'])).toContain('X-Signature');
    }
  });

  it('rejects a body that is not JSON with a 400 naming the problem', async () => {
    const response = await t.request('POST', `${CLIENT}/responses`, '{"surveyId": ');
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'bad_request', message: 'The request body is not valid JSON' });
  });

  it('creates responses without ttc, merges data shallowly on update and adds _total when finished', async () => {
    const { body: sync } = await t.request('GET', `${CLIENT}/in-app/sync`);
    const surveyId = sync.data.surveys.find((s: { name: string }) => s.name.startsWith('Every')).id;
    const created = await t.request('POST', `${CLIENT}/responses`, {
      surveyId,
      userId: null,
      singleUseId: null,
      finished: false,
      data: { role: 'Developer' },
      ttc: { role: 1200 },
    });
    expect(created.status).toBe(200);
    const id = created.body.data.id;
    expect(id).toMatch(/^c[a-z0-9]{24}$/);
    let stored = (await t.management('GET', `/responses/${id}`)).body.data;
    expect(stored).toMatchObject({ surveyId, finished: false, data: { role: 'Developer' }, ttc: {}, person: null });

    expect(
      (
        await t.request('PUT', `${CLIENT}/responses/${id}`, {
          finished: false,
          data: { name: 'Ada', inputType: 'text' },
          ttc: { role: 1200, name: 800 },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await t.request('PUT', `${CLIENT}/responses/${id}`, {
          finished: true,
          data: { features: ['Surveys'] },
          ttc: { role: 1200, name: 800, features: 500 },
        })
      ).body,
    ).toEqual({ data: {} });
    stored = (await t.management('GET', `/responses/${id}`)).body.data;
    expect(stored.data).toEqual({ role: 'Developer', name: 'Ada', inputType: 'text', features: ['Surveys'] });
    expect(stored.ttc).toEqual({ role: 1200, name: 800, features: 500, _total: 2500 });
    expect(stored.finished).toBe(true);
    expect(stored.meta.userAgent).toEqual(expect.objectContaining({ device: 'desktop' }));
  });

  it('maps the legacy personId of old clients to the userId', async () => {
    const created = await t.request('POST', `${CLIENT}/responses`, {
      surveyId: 'clensigndemosurveyexitin',
      personId: 'legacy-user',
      finished: true,
      data: { leaving: 'old client' },
    });
    expect(created.status).toBe(200);
    expect((await t.management('GET', `/responses/${created.body.data.id}`)).body.data.person.userId).toBe(
      'legacy-user',
    );
  });

  it('keeps every key when updates of one response arrive at once', async () => {
    const surveyId = 'clensigndemosurveyallqts';
    const created = await t.request('POST', `${CLIENT}/responses`, { surveyId, finished: false, data: {} });
    const id = created.body.data.id;
    const keys = Array.from({ length: 12 }, (_, i) => `k${i}`);
    const results = await Promise.all(
      keys.map((key) => t.request('PUT', `${CLIENT}/responses/${id}`, { finished: false, data: { [key]: key } })),
    );
    expect(results.map((r) => r.status)).toEqual(keys.map(() => 200));
    const stored = (await t.management('GET', `/responses/${id}`)).body.data;
    expect(Object.keys(stored.data).sort()).toEqual([...keys].sort());
  });

  it('answers 400, never 500, to bodies of the wrong shape', async () => {
    for (const body of ['[]', 'null', '"text"', '42', '']) {
      for (const path of ['/responses', '/displays', '/actions', '/people/someone', '/storage']) {
        const response = await t.app.inject({
          method: 'POST',
          url: `${CLIENT}${path}`,
          payload: body,
          headers: { 'content-type': 'application/json' },
        });
        expect(response.statusCode, `${path} ${body}`).toBe(400);
        expect(response.json().code).toBe('bad_request');
      }
    }
    expect((await t.request('GET', `${CLIENT}/in-app/sync/${'u'.repeat(256)}`)).status).toBe(400);
    expect((await t.management('PUT', '/surveys/clensigndemosurveyclicks', [1, 2])).status).toBe(400);
  });

  it('validates responses: bad fields are named, unknown surveys and responses are 404', async () => {
    const bad = await t.request('POST', `${CLIENT}/responses`, { surveyId: 'nope', finished: 'yes', data: [] });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.details).sort()).toEqual(['data', 'finished', 'surveyId']);
    const unknown = await t.request('POST', `${CLIENT}/responses`, {
      surveyId: 'cunknownsurvey0000000000',
      finished: false,
      data: {},
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Survey not found');
    const missing = await t.request('PUT', `${CLIENT}/responses/cunknownresponse00000000`, {
      finished: true,
      data: {},
    });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Response not found');
    expect(
      (await t.request('PUT', `${CLIENT}/responses/not-an-id`, { finished: true, data: {} })).body.details,
    ).toEqual({ responseId: 'Invalid cuid' });
  });

  it('stops syncing a survey once its close date has passed', async () => {
    const past = (
      await t.management(
        'POST',
        '/surveys',
        simpleSurvey('Closed yesterday', { closeOnDate: new Date(Date.now() - 86_400_000).toISOString() }),
      )
    ).body.data.id;
    const future = (
      await t.management(
        'POST',
        '/surveys',
        simpleSurvey('Closes tomorrow', { closeOnDate: new Date(Date.now() + 86_400_000).toISOString() }),
      )
    ).body.data.id;
    for (const url of [`${CLIENT}/in-app/sync`, `${CLIENT}/in-app/sync/closing-user?version=1.6.5`]) {
      const ids = (await t.request('GET', url)).body.data.surveys.map((s: { id: string }) => s.id);
      expect(ids).toContain(future);
      expect(ids).not.toContain(past);
    }
    expect(
      (await t.management('POST', '/surveys', simpleSurvey('Bad date', { closeOnDate: 'tomorrow' }))).body.details,
    ).toEqual({ closeOnDate: 'must be an ISO 8601 timestamp' });
  });

  it('completes a survey once it has autoComplete responses', async () => {
    const created = await t.management(
      'POST',
      '/surveys',
      simpleSurvey('Auto complete', { autoComplete: 2, displayOption: 'respondMultiple' }),
    );
    const surveyId = created.body.data.id;
    const respond = () => t.request('POST', `${CLIENT}/responses`, { surveyId, finished: true, data: { q1: 'x' } });
    await respond();
    expect((await t.management('GET', `/surveys/${surveyId}`)).body.data.status).toBe('inProgress');
    const second = await t.request('POST', `${CLIENT}/responses`, { surveyId, finished: false, data: {} });
    expect((await t.management('GET', `/surveys/${surveyId}`)).body.data.status).toBe('inProgress');
    await t.request('PUT', `${CLIENT}/responses/${second.body.data.id}`, { finished: true, data: { q1: 'y' } });
    expect((await t.management('GET', `/surveys/${surveyId}`)).body.data.status).toBe('completed');
    const synced = (await t.request('GET', `${CLIENT}/in-app/sync`)).body.data.surveys.map((s: { id: string }) => s.id);
    expect(synced).not.toContain(surveyId);
  });

  it('records displays, links them to a response, and creates the person of an identified display', async () => {
    const { body: sync } = await t.request('GET', `${CLIENT}/in-app/sync`);
    const surveyId = sync.data.surveys[0].id;
    const display = await t.request('POST', `${CLIENT}/displays`, { surveyId, userId: 'display-user' });
    expect(display.status).toBe(200);
    const displayId = display.body.data.id;
    const response = await t.request('POST', `${CLIENT}/responses`, {
      surveyId,
      userId: 'display-user',
      finished: false,
      data: {},
    });
    expect(
      (await t.request('PUT', `${CLIENT}/displays/${displayId}`, { responseId: response.body.data.id })).body,
    ).toEqual({ data: {} });
    const displays = (await t.management('GET', `/displays?surveyId=${surveyId}`)).body.data;
    expect(displays).toContainEqual(
      expect.objectContaining({ id: displayId, surveyId, responseId: response.body.data.id }),
    );
    const people = (await t.management('GET', '/people')).body.data;
    expect(people.map((p: { userId: string }) => p.userId)).toContain('display-user');

    expect((await t.request('POST', `${CLIENT}/displays`, { surveyId: 'cunknownsurvey0000000000' })).status).toBe(404);
    expect(
      (await t.request('PUT', `${CLIENT}/displays/cunknowndisplay000000000`, { responseId: response.body.data.id }))
        .status,
    ).toBe(404);
    expect((await t.request('POST', `${CLIENT}/displays`, {})).body.details).toEqual({ surveyId: expect.any(String) });
  });

  it('updates attributes and says whether anything changed', async () => {
    const first = await t.request('POST', `${CLIENT}/people/attr-user`, { attributes: { plan: 'free', seats: 3 } });
    expect(first.body).toEqual({ data: { changed: true, message: 'The person was successfully updated.' } });
    const again = await t.request('POST', `${CLIENT}/people/attr-user`, { attributes: { seats: '3' } });
    expect(again.body.data.changed).toBe(false);
    const changed = await t.request('POST', `${CLIENT}/people/attr-user`, { attributes: { plan: 'paid' } });
    expect(changed.body.data.changed).toBe(true);
    const person = (await t.management('GET', '/people')).body.data.find(
      (p: { userId: string }) => p.userId === 'attr-user',
    );
    expect(person.attributes).toEqual({ plan: 'paid', seats: '3' });
    expect((await t.request('POST', `${CLIENT}/people/attr-user`, { attributes: { plan: true } })).status).toBe(400);
    expect((await t.request('POST', `${CLIENT}/people`, { environmentId: ENV, userId: 'created-user' })).body).toEqual({
      data: { userId: 'created-user' },
    });
  });

  it('records actions of identified users and creates their action classes', async () => {
    expect(
      (await t.request('POST', `${CLIENT}/actions`, { environmentId: ENV, userId: 'actor', name: 'Checked out' })).body,
    ).toEqual({ data: {} });
    const classes = (await t.management('GET', '/action-classes')).body.data;
    expect(classes).toContainEqual(expect.objectContaining({ name: 'Checked out', type: 'code' }));
    const missing = await t.request('POST', `${CLIENT}/actions`, { environmentId: ENV, name: 'x' });
    expect(missing.status).toBe(400);
    expect(missing.body.details).toEqual({ userId: expect.any(String) });
  });

  it('filters the identified sync by display option, recontact days and segment', async () => {
    const create = async (name: string, extra: Record<string, unknown>) =>
      (await t.management('POST', '/surveys', simpleSurvey(name, extra))).body.data.id as string;
    const once = await create('Targeting once', { displayOption: 'displayOnce' });
    const untilAnswered = await create('Targeting until answered', { displayOption: 'displayMultiple' });
    const weekly = await create('Targeting weekly', { displayOption: 'respondMultiple', recontactDays: 7 });
    const paidOnly = await create('Targeting paid', {
      displayOption: 'respondMultiple',
      segment: {
        filters: [
          {
            id: 'f1',
            connector: null,
            resource: {
              id: 'r1',
              root: { type: 'attribute', attributeClassName: 'plan' },
              value: 'paid',
              qualifier: { operator: 'equals' },
            },
          },
        ],
      },
    });
    const visible = async (userId: string) =>
      (
        (await t.request('GET', `${CLIENT}/in-app/sync/${userId}?version=1.6.5`)).body.data.surveys as { id: string }[]
      ).map((s) => s.id);

    const fresh = await visible('target-user');
    expect(fresh).toEqual(expect.arrayContaining([once, untilAnswered, weekly]));
    expect(fresh).not.toContain(paidOnly);
    const anonymous = (await t.request('GET', `${CLIENT}/in-app/sync`)).body.data.surveys.map(
      (s: { id: string }) => s.id,
    );
    expect(anonymous).not.toContain(paidOnly);

    await t.request('POST', `${CLIENT}/people/target-user`, { attributes: { plan: 'paid' } });
    for (const surveyId of [once, untilAnswered, weekly])
      await t.request('POST', `${CLIENT}/displays`, { surveyId, userId: 'target-user' });
    const afterDisplays = await visible('target-user');
    expect(afterDisplays).not.toContain(once);
    expect(afterDisplays).toContain(untilAnswered);
    expect(afterDisplays).not.toContain(weekly);
    expect(afterDisplays).toContain(paidOnly);

    const display = await t.request('POST', `${CLIENT}/displays`, { surveyId: untilAnswered, userId: 'target-user' });
    const response = await t.request('POST', `${CLIENT}/responses`, {
      surveyId: untilAnswered,
      userId: 'target-user',
      finished: true,
      data: { q1: 'hi' },
    });
    await t.request('PUT', `${CLIENT}/displays/${display.body.data.id}`, { responseId: response.body.data.id });
    expect(await visible('target-user')).not.toContain(untilAnswered);
    const stored = (await t.management('GET', `/responses/${response.body.data.id}`)).body.data;
    expect(stored.person.userId).toBe('target-user');
    expect(stored.personAttributes).toEqual({ plan: 'paid' });

    const legacy = await t.request('GET', `${CLIENT}/in-app/sync/target-user`);
    expect(legacy.body.data.person).toMatchObject({ userId: 'target-user', attributes: { plan: 'paid' } });
    expect('person' in (await t.request('GET', `${CLIENT}/in-app/sync/target-user?version=1.6.5`)).body.data).toBe(
      false,
    );
  });

  it('keeps the management API behind x-api-key', async () => {
    const none = await t.request('GET', '/api/v1/management/me');
    expect(none.status).toBe(401);
    expect(none.body).toEqual({
      code: 'not_authenticated',
      message: 'Not authenticated',
      details: { 'x-Api-Key': 'Header not provided or API Key invalid' },
    });
    expect(
      (await t.request('GET', '/api/v1/management/surveys', undefined, { 'x-api-key': 'wrong-key-wrong-key' })).status,
    ).toBe(401);
    const me = await t.request('GET', '/api/v1/management/me', undefined, { 'x-api-key': API_KEY });
    expect(me.body.data).toMatchObject({ id: ENV, type: 'development', product: { name: 'Ensign demo' } });
  });

  it('caps attributes: 150 per person, names of 128 characters, values of 1,024, with a 400 naming the problem', async () => {
    const many = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`key${i}`, 'v']));
    const flood = await t.request('POST', `${CLIENT}/people/capped`, { attributes: many });
    expect(flood.status).toBe(400);
    expect(flood.body.details).toEqual({ attributes: 'at most 150 attributes may be set at once' });
    const longName = await t.request('POST', `${CLIENT}/people/capped`, { attributes: { ['n'.repeat(129)]: 'v' } });
    expect(Object.values(longName.body.details)).toEqual(['attribute names must be at most 128 characters']);
    const longValue = await t.request('POST', `${CLIENT}/people/capped`, { attributes: { plan: 'v'.repeat(1025) } });
    expect(Object.values(longValue.body.details)).toEqual(['attribute values must be at most 1024 characters']);
    const first = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`a${i}`, 'v']));
    expect((await t.request('POST', `${CLIENT}/people/capped`, { attributes: first })).status).toBe(200);
    const more = await t.request('POST', `${CLIENT}/people/capped`, { attributes: { extra: 'v' } });
    expect(more.status).toBe(400);
    expect(more.body.message).toBe('a person may have at most 150 attributes');
    // Changing an existing one is still allowed.
    expect((await t.request('POST', `${CLIENT}/people/capped`, { attributes: { a0: 'w' } })).body.data.changed).toBe(
      true,
    );
  });
});
