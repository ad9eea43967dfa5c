import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVERYONE_SEGMENT } from '../../../domain/surveys/current-shape.js';
import { Api } from '../evaluation/api.js';
import { dialects } from '../support.js';
import { CLIENT, ENV, startSurveyApp, type SurveyTestApp } from './support.js';

const V1 = `/api/v1/client/${ENV}`;
const V2 = `/api/v2/client/${ENV}`;
const CONSOLE = `/api/v1/namespaces/default/surveys/environments/${ENV}`;
/** What React Native 3.2 sends as its user agent's tail, and from where its WebView posts. */
const APP = { 'user-agent': 'okhttp/4.12.0 Android' };

const questions = [
  { id: 'nps', type: 'nps', headline: 'How likely?', required: true, lowerLabel: 'No', upperLabel: 'Yes' },
  { id: 'why', type: 'openText', headline: 'Why?', required: false },
];
const HOUR = 3_600_000;

describe.each(dialects)("today's Formbricks client wire on %s", (dialect) => {
  let t: SurveyTestApp;
  let surveyId: string;
  let proSurveyId: string;
  const created = async (body: Record<string, unknown>) => {
    const answer = await t.management('POST', '/surveys', {
      status: 'inProgress',
      questions,
      triggers: ['RN action'],
      ...body,
    });
    expect(answer.status).toBe(200);
    return answer.body.data.id as string;
  };
  const environment = async (version: 'v1' | 'v2' = 'v1') => {
    const answer = await t.request('GET', `/api/${version}/client/${ENV}/environment`, undefined, APP);
    expect(answer.status).toBe(200);
    return answer;
  };
  const user = async (body: Record<string, unknown>) => {
    const answer = await t.request('POST', `${V2}/user`, body, APP);
    expect(answer.status).toBe(200);
    return answer.body.data;
  };

  beforeAll(async () => {
    t = await startSurveyApp(dialect);
    const api = new Api(t.app);
    await api.segment('default', 'pro', [['STRING_COMPARISON_TYPE', 'plan', 'eq', 'pro']]);
    surveyId = await created({
      name: 'Mobile NPS',
      recontactDays: 2,
      displayOption: 'displayMultiple',
      productOverwrites: { placement: 'center', darkOverlay: true },
    });
    proSurveyId = await created({ name: 'Pro only', segmentKey: 'pro' });
  });
  afterAll(() => t.close());

  it('serves the environment state nested in data with an expiry, its surveys in the current shape', async () => {
    const before = Date.now();
    const { body, headers } = await environment();
    expect(headers['cache-control']).toBe(
      'public, s-maxage=60, max-age=60, stale-while-revalidate=60, stale-if-error=60',
    );
    expect(headers['access-control-allow-origin']).toBe('*');
    const expiresAt = Date.parse(body.data.expiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(before + HOUR);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + HOUR);
    const { surveys, actionClasses, workspace, project } = body.data.data;
    expect(project).toEqual(workspace);
    expect(workspace).toMatchObject({ id: ENV, overlay: expect.any(String), styling: { allowStyleOverwrite: true } });
    const survey = surveys.find((item: { id: string }) => item.id === surveyId);
    expect(survey).toMatchObject({
      type: 'app',
      status: 'inProgress',
      questions: [],
      blocks: [
        { id: 'nps', elements: [{ id: 'nps', type: 'nps', headline: { default: 'How likely?' } }] },
        { id: 'why', elements: [{ id: 'why', headline: { default: 'Why?' } }] },
      ],
      triggers: [{ actionClass: { name: 'RN action' } }],
      displayOption: 'displayMultiple',
      recontactDays: 2,
      workspaceOverwrites: { placement: 'center', overlay: 'dark' },
      projectOverwrites: { placement: 'center', overlay: 'dark' },
      segment: { id: EVERYONE_SEGMENT, hasFilters: false },
    });
    // A survey for a Flipt segment is kept from anonymous visitors by its filters.
    expect(surveys.find((item: { id: string }) => item.id === proSurveyId).segment).toEqual({
      id: 'flipt:pro',
      hasFilters: true,
      filters: [{}],
    });
    expect(actionClasses).toContainEqual(
      expect.objectContaining({ name: 'RN action', type: 'code', key: 'RN action', noCodeConfig: null }),
    );
    // iOS and Android read the v2 path: the same state.
    expect((await environment('v2')).body.data.data).toEqual(body.data.data);
  });

  it('drives the calls React Native 3.2 makes: user, display, response, update, and the user state again', async () => {
    await environment();
    const first = await user({
      userId: 'rn-user',
      attributes: { email: 'rn@example.com', plan: 'pro', language: 'de-de' },
    });
    const before = Date.now();
    expect(Date.parse(first.state.expiresAt)).toBeGreaterThan(before + 29 * 60_000);
    expect(first.state.data).toMatchObject({
      userId: 'rn-user',
      contactId: expect.any(String),
      displays: [],
      responses: [],
      lastDisplayAt: null,
      language: 'de-DE',
    });
    expect(first.state.data.segments).toEqual(expect.arrayContaining([EVERYONE_SEGMENT, 'flipt:pro']));
    const { contactId } = first.state.data;

    // The renderer in the WebView posts v2 displays and responses with the contact id, then updates on v1.
    const display = await t.request('POST', `${V2}/displays`, { surveyId, contactId }, APP);
    expect(display.status).toBe(200);
    const displayId = display.body.data.id;
    const response = await t.request(
      'POST',
      `${V2}/responses`,
      {
        surveyId,
        contactId,
        userId: null,
        singleUseId: null,
        displayId,
        pinAuthToken: null,
        finished: false,
        data: { nps: 9 },
        ttc: { nps: 1200 },
        variables: {},
        language: 'default',
        meta: { url: 'app://home', source: 'app', action: 'RN action' },
        endingId: null,
      },
      APP,
    );
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ id: expect.any(String), quotaFull: false });
    const responseId = response.body.data.id;
    const update = await t.request(
      'PUT',
      `${V1}/responses/${responseId}`,
      {
        finished: true,
        endingId: null,
        data: { why: 'Fast' },
        ttc: { nps: 1200, why: 3000, _total: 4200 },
        variables: {},
        language: 'default',
        pinAuthToken: null,
      },
      APP,
    );
    expect(update.status).toBe(200);
    const recovered = await t.request('GET', `${V1}/displays/${displayId}/response`);
    expect(recovered.body).toEqual({ data: { responseId } });

    const again = await user({ userId: 'rn-user' });
    expect(again.state.data).toMatchObject({
      contactId,
      displays: [{ surveyId, createdAt: expect.any(String) }],
      responses: [surveyId],
      lastDisplayAt: again.state.data.displays[0].createdAt,
      language: 'de-DE',
    });
  });

  it('puts a response from the current wire in the console results beside a 1.6 one', async () => {
    const { contactId } = (await user({ userId: 'mixed-user' })).state.data;
    const current = await t.request('POST', `${V2}/responses`, {
      surveyId,
      contactId,
      finished: true,
      data: { nps: 3 },
    });
    const legacy = await t.request('POST', `${CLIENT}/responses`, {
      surveyId,
      userId: 'legacy-user',
      finished: true,
      data: { nps: 10 },
    });
    const list = await t.request('GET', `${CONSOLE}/surveys/${surveyId}/results/responses`);
    expect(list.status).toBe(200);
    const byId = new Map(list.body.data.map((item: { id: string }) => [item.id, item]));
    expect(byId.get(current.body.data.id)).toMatchObject({ person: { userId: 'mixed-user' }, data: { nps: 3 } });
    expect(byId.get(legacy.body.data.id)).toMatchObject({ person: { userId: 'legacy-user' }, data: { nps: 10 } });
    const summary = await t.request('GET', `${CONSOLE}/surveys/${surveyId}/results/summary`);
    expect(summary.status).toBe(200);
    expect(JSON.stringify(summary.body)).toContain('"nps"');
  });

  it('reports a Flipt segment only to the people in it', async () => {
    const outsider = await user({ userId: 'rn-free', attributes: { plan: 'free' } });
    expect(outsider.state.data.segments).toEqual([EVERYONE_SEGMENT]);
    const promoted = await user({ userId: 'rn-free', attributes: { plan: 'pro' } });
    expect(promoted.state.data.segments).toEqual(expect.arrayContaining([EVERYONE_SEGMENT, 'flipt:pro']));
  });

  it('reports a survey linked to a flag to the visitors the flag gives a linked variant, and records the variant shown', async () => {
    const api = new Api(t.app);
    await api.flag('default', 'checkout');
    const b = await api.variant('default', 'checkout', 'b');
    await api.rule('default', 'checkout', ['pro'], [[b.id, 100]], 1);
    const linked = await created({ name: 'Checkout b', linkedFlag: { flagKey: 'checkout', variants: ['b'] } });
    const segment = `survey:${linked}`;
    const pro = await user({ userId: 'rn-pro', attributes: { plan: 'pro' } });
    expect(pro.state.data.segments).toContain(segment);
    expect((await user({ userId: 'rn-basic', attributes: { plan: 'basic' } })).state.data.segments).not.toContain(
      segment,
    );
    const display = await t.request('POST', `${V2}/displays`, {
      surveyId: linked,
      contactId: pro.state.data.contactId,
    });
    const response = await t.request('POST', `${V2}/responses`, {
      surveyId: linked,
      contactId: pro.state.data.contactId,
      displayId: display.body.data.id,
      finished: true,
      data: { nps: 8 },
    });
    const displays = await t.management('GET', `/displays?surveyId=${linked}`);
    expect(displays.body.data).toEqual([
      expect.objectContaining({
        id: display.body.data.id,
        responseId: response.body.data.id,
        flag: expect.objectContaining({ flagKey: 'checkout', variant: 'b' }),
      }),
    ]);
    const stored = await t.management('GET', `/responses/${response.body.data.id}`);
    expect(stored.body.data.flag).toMatchObject({ flagKey: 'checkout', variant: 'b' });
  });

  it('drops id keys and bad languages from attributes, and refuses an email without "@"', async () => {
    const answer = await user({ userId: 'rn-attrs', attributes: { userId: 'other', id: 'x', language: 'not a tag!' } });
    expect(answer.messages).toEqual([expect.stringContaining('not a tag!')]);
    expect(answer.state.data).not.toHaveProperty('language');
    const people = await t.management('GET', '/people');
    const person = people.body.data.find((item: { userId: string }) => item.userId === 'rn-attrs');
    expect(person.attributes).toEqual({});
    const refused = await t.request('POST', `${V2}/user`, { userId: 'rn-attrs', attributes: { email: 'nope' } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'bad_request', details: { 'attributes.email': expect.any(String) } });
  });

  it('answers quotaFull once auto-complete has closed the survey', async () => {
    const closing = await created({ name: 'One answer', autoComplete: 1 });
    const first = await t.request('POST', `${V2}/responses`, { surveyId: closing, finished: true, data: { nps: 5 } });
    expect(first.body.data.quotaFull).toBe(false);
    const late = await t.request('POST', `${V2}/responses`, { surveyId: closing, finished: false, data: { nps: 1 } });
    expect(late.status).toBe(200);
    expect(late.body.data).toEqual({
      id: expect.any(String),
      quotaFull: true,
      quota: { id: `${closing}-auto-complete`, action: 'endSurvey', endingCardId: 'end' },
    });
  });

  it("uploads a file as today's renderer does: presigned fields posted before the file", async () => {
    const withFile = await created({
      name: 'Upload',
      questions: [{ id: 'file', type: 'fileUpload', headline: 'A file', required: false, allowMultipleFiles: false }],
    });
    const signed = await t.request('POST', `${V2}/storage`, {
      fileName: 'notes.txt',
      fileType: 'text/plain',
      surveyId: withFile,
      elementId: 'file',
    });
    expect(signed.status).toBe(200);
    const { signedUrl, presignedFields, fileUrl } = signed.body.data;
    expect(presignedFields).toEqual(expect.objectContaining({ 'X-Signature': expect.any(String) }));
    const upload = (fields: Record<string, string>) => {
      const boundary = '----ensign-current-upload';
      const parts = Object.entries(fields).map(
        ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      );
      const payload = Buffer.concat([
        Buffer.from(parts.join('')),
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="notes.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${boundary}--\r\n`,
        ),
      ]);
      return t.app.inject({
        method: 'POST',
        url: new URL(signedUrl).pathname,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
    };
    const forged = await upload({ ...presignedFields, 'X-Signature': 'f'.repeat(64) });
    expect(forged.statusCode).toBe(401);
    expect(JSON.parse(forged.body).code).toBe('unauthorized');
    const stored = await upload(presignedFields);
    expect(stored.statusCode).toBe(200);
    const file = await t.request('GET', new URL(fileUrl).pathname);
    expect(file.status).toBe(200);
    expect(file.body).toBe('hello');
  });

  it('answers every preflight from any origin, allowing Content-Type and Cache-Control', async () => {
    for (const path of [`${V1}/environment`, `${V2}/environment`, `${V2}/user`, `${V2}/displays`, `${V2}/responses`]) {
      const answer = await t.request('OPTIONS', path, undefined, {
        origin: 'null',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,cache-control',
      });
      expect(answer.status, path).toBe(200);
      expect(answer.headers['access-control-allow-origin']).toBe('*');
      expect(String(answer.headers['access-control-allow-headers']).toLowerCase()).toContain('cache-control');
      expect(String(answer.headers['access-control-allow-methods'])).toContain('PUT');
    }
  });

  it('answers errors as {code, message, details} with the statuses of the reference', async () => {
    const unknown = await t.request('GET', '/api/v1/client/cunknownenvironment000001/environment');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ code: 'not_found', message: expect.any(String), details: expect.any(Object) });
    const badId = await t.request('GET', '/api/v2/client/not-an-id/environment');
    expect(badId.status).toBe(400);
    expect(badId.body.code).toBe('bad_request');
    const noUser = await t.request('POST', `${V2}/user`, { attributes: {} });
    expect(noUser.status).toBe(400);
    expect(noUser.body).toMatchObject({ code: 'bad_request', details: { userId: expect.any(String) } });
    const noContact = await t.request('POST', `${V2}/displays`, { surveyId, contactId: 'cunknowncontact0000000001' });
    expect(noContact.status).toBe(404);
    expect(noContact.body.code).toBe('not_found');
    const noDisplay = await t.request('GET', `${V1}/displays/cunknowndisplay0000000001/response`);
    expect(noDisplay.status).toBe(404);
    const noRoute = await t.request('GET', `${V2}/nothing-here`);
    expect(noRoute.status).toBe(404);
    expect(noRoute.body.code).toBe('not_found');
  });

  it('carries at most 30 running surveys, newest first', async () => {
    for (let i = 0; i < 31; i++) await created({ name: `Many ${i}` });
    const { surveys } = (await environment()).body.data.data;
    expect(surveys).toHaveLength(30);
    expect(surveys[0].name).toBe('Many 30');
    expect(surveys.every((survey: { status: string }) => survey.status === 'inProgress')).toBe(true);
  });
});
