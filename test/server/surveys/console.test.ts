import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../server/db/index.js';
import { READ_ONLY_STORAGE } from '../../../server/surveys/errors.js';
import { dialects } from '../support.js';
import { surveyIssues } from '../../../domain/surveys/schema.js';
import { draftOf } from '../../../src/features/surveys/status.js';
import { asToken, startAuthApp, type AuthTestApp } from '../auth/helpers.js';
import { ENV, startSurveyApp, type SurveyTestApp } from './support.js';

const NPS = {
  name: 'NPS',
  status: 'draft',
  triggers: ['Opened pricing'],
  questions: [{ id: 'nps', type: 'nps', headline: 'How likely?', lowerLabel: 'Not', upperLabel: 'Very' }],
};

describe.each(dialects)('the console survey API on %s', (dialect) => {
  let t: SurveyTestApp;
  const base = '/api/v1/namespaces/shop/surveys/environments';
  beforeAll(async () => {
    t = await startSurveyApp(dialect);
    expect((await t.request('POST', '/api/v1/namespaces', { key: 'shop', name: 'Shop' })).status).toBe(200);
  });
  afterAll(() => t.close());

  const environments = async () => (await t.request('GET', base)).body.environments as any[];

  it('creates a production and a development environment for a namespace, once', async () => {
    expect(await environments()).toEqual([]);
    const created = await t.request('POST', base, {});
    expect(created.status).toBe(200);
    expect(created.body.environments.map((e: any) => e.type)).toEqual(['production', 'development']);
    expect(created.body.environments[0]).toMatchObject({
      namespaceKey: 'shop',
      widgetSetupCompleted: false,
      sdkGenerations: [],
      product: { name: 'Shop', brandColor: '#64748b', placement: 'bottomRight', recontactDays: 7 },
    });
    expect((await t.request('POST', base, {})).status).toBe(409);
    expect((await t.request('POST', '/api/v1/namespaces/nowhere/surveys/environments', {})).status).toBe(404);
    // The widget syncs against the new environment at once.
    const [production] = await environments();
    const sync = await t.request('GET', `/api/v1/client/${production.id}/in-app/sync`);
    expect(sync.status).toBe(200);
    expect(sync.body.data.product.brandColor).toBe('#64748b');
  });

  it('records the SDK generations whose widgets synced with an environment, in the order first seen', async () => {
    const [production, development] = await environments();
    const sync = (path: string) => t.request('GET', `/api/v1/client/${production.id}/in-app/${path}`);
    // the loader's setup() face (today's @formbricks/js) says version 5.x; init() and @formbricks/js 1.6.5 say 1.6.5
    expect((await sync('sync?version=5.1.0')).status).toBe(200);
    expect((await sync('sync/ada?version=1.6.5')).status).toBe(200);
    expect((await sync('sync?version=1.6.5')).status).toBe(200);
    expect((await sync('sync/ada')).status).toBe(200);
    // today's wire (React Native, iOS, Android) asks for the environment state
    for (const api of ['v1', 'v2'])
      expect((await t.request('GET', `/api/${api}/client/${production.id}/environment`)).status).toBe(200);
    const after = await environments();
    expect(after.find((e: any) => e.id === production.id)).toMatchObject({
      widgetSetupCompleted: true,
      // the sync of the test above (no version, as clients older than 1.6 send) was the first
      sdkGenerations: ['1.6', '5', 'current'],
    });
    expect(after.find((e: any) => e.id === development.id).sdkGenerations).toEqual([]);
  });

  it('shows the seeded demo environment under the default namespace', async () => {
    const demo = (await t.request('GET', '/api/v1/namespaces/default/surveys/environments')).body.environments;
    expect(demo.map((e: any) => e.id)).toContain(ENV);
    const other = await t.request('GET', `${base}/${ENV}/surveys`);
    expect(other.status).toBe(404);
  });

  it('round-trips every demo survey through the editor unchanged', async () => {
    const demo = `/api/v1/namespaces/default/surveys/environments/${ENV}/surveys`;
    const surveys = (await t.request('GET', demo)).body.surveys as any[];
    expect(surveys.length).toBeGreaterThan(0);
    for (const { displayCount: _d, responseCount: _r, ...survey } of surveys) {
      // The editor opens the survey with no problem to fix, and saving it untouched sends back what it read.
      expect(surveyIssues(survey), survey.name).toEqual({});
      const saved = await t.request('PUT', `${demo}/${survey.id}`, draftOf(survey));
      expect(saved.status, survey.name).toBe(200);
      expect({ ...saved.body, updatedAt: survey.updatedAt }).toEqual(survey);
    }
  });

  it('saves product settings the sync sends, naming a bad field', async () => {
    const [production] = await environments();
    const bad = await t.request('PUT', `${base}/${production.id}/product`, { name: 'Shop', placement: 'middle' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^invalid field placement: must be bottomLeft/);
    const saved = await t.request('PUT', `${base}/${production.id}/product`, {
      name: 'Shop web',
      brandColor: '#ff0000',
      placement: 'center',
      darkOverlay: true,
      clickOutsideClose: false,
      highlightBorderColor: '#00ff00',
      recontactDays: 3,
    });
    expect(saved.status).toBe(200);
    const sync = await t.request('GET', `/api/v1/client/${production.id}/in-app/sync`);
    expect(sync.body.data.product).toMatchObject({
      name: 'Shop web',
      brandColor: '#ff0000',
      placement: 'center',
      darkOverlay: true,
      clickOutsideClose: false,
      highlightBorderColor: '#00ff00',
      recontactDays: 3,
    });
  });

  it('creates management keys shown once and stored hashed, and revokes them', async () => {
    const [production] = await environments();
    const created = await t.request('POST', `${base}/${production.id}/api-keys`, { label: 'CI' });
    expect(created.status).toBe(200);
    const { apiKey, id, prefix } = created.body;
    expect(apiKey).toMatch(/^[0-9a-f]{48}$/);
    expect(prefix).toBe(apiKey.slice(0, 6));
    const listed = (await t.request('GET', `${base}/${production.id}/api-keys`)).body.apiKeys;
    expect(listed).toEqual([{ id, label: 'CI', prefix, createdAt: expect.any(String) }]);
    const database = await openDatabase(t.database.url);
    const stored = await database.db.selectFrom('survey_api_keys').selectAll().where('id', '=', id).execute();
    await database.close();
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(apiKey);
    const me = await t.request('GET', '/api/v1/management/me', undefined, { 'x-api-key': apiKey });
    expect(me.body.data.id).toBe(production.id);
    expect((await t.request('DELETE', `${base}/${production.id}/api-keys/${id}`)).status).toBe(200);
    expect((await t.request('GET', '/api/v1/management/me', undefined, { 'x-api-key': apiKey })).status).toBe(401);
    expect((await t.request('DELETE', `${base}/${production.id}/api-keys/${id}`)).status).toBe(404);
    expect((await t.request('POST', `${base}/${production.id}/api-keys`, { label: ' ' })).body.message).toBe(
      'invalid field label: must not be empty',
    );
  });

  it('creates, lists with counts, publishes, copies and deletes surveys; a publish reaches the next sync', async () => {
    const [production, development] = await environments();
    const action = await t.request('POST', `${base}/${production.id}/action-classes`, {
      name: 'Opened pricing',
      type: 'noCode',
      noCodeConfig: { type: 'pageUrl', pageUrl: { value: '/pricing', rule: 'contains' } },
    });
    expect(action.status).toBe(200);
    const created = await t.request('POST', `${base}/${production.id}/surveys`, NPS);
    expect(created.status).toBe(200);
    const survey = created.body;
    const sync = async () =>
      (await t.request('GET', `/api/v1/client/${production.id}/in-app/sync`)).body.data.surveys.map((s: any) => s.id);
    expect(await sync()).not.toContain(survey.id);

    const published = await t.request('PUT', `${base}/${production.id}/surveys/${survey.id}`, {
      ...survey,
      status: 'inProgress',
    });
    expect(published.body.status).toBe('inProgress');
    expect(await sync()).toContain(survey.id);

    const list = (await t.request('GET', `${base}/${production.id}/surveys`)).body.surveys;
    expect(list).toEqual([
      expect.objectContaining({ id: survey.id, displayCount: 0, responseCount: 0, triggers: ['Opened pricing'] }),
    ]);
    const display = await t.request('POST', `/api/v1/client/${production.id}/displays`, { surveyId: survey.id });
    expect(display.status).toBe(200);
    const counted = (await t.request('GET', `${base}/${production.id}/surveys`)).body.surveys[0];
    expect(counted.displayCount).toBe(1);

    const bad = await t.request('PUT', `${base}/${production.id}/surveys/${survey.id}`, {
      ...survey,
      questions: [{ ...survey.questions[0], logic: [{ condition: 'equals', value: 11, destination: 'end' }] }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('invalid field questions.0.logic.0.value: must be a whole number from 0 to 10');

    const copied = await t.request('POST', `${base}/${production.id}/surveys/${survey.id}/copy`, {
      environmentId: development.id,
    });
    expect(copied.status).toBe(200);
    expect(copied.body).toMatchObject({ environmentId: development.id, status: 'draft', name: 'NPS' });
    const copiedAction = (await t.request('GET', `${base}/${development.id}/action-classes`)).body.actionClasses.find(
      (a: any) => a.name === 'Opened pricing',
    );
    expect(copiedAction).toMatchObject({
      type: 'noCode',
      noCodeConfig: { pageUrl: { value: '/pricing', rule: 'contains' } },
    });
    expect(
      (await t.request('POST', `${base}/${production.id}/surveys/${survey.id}/copy`, { environmentId: ENV })).status,
    ).toBe(400);

    const paused = await t.request('PUT', `${base}/${production.id}/surveys/${survey.id}`, {
      ...published.body,
      status: 'paused',
    });
    expect(paused.body.status).toBe('paused');
    expect(await sync()).not.toContain(survey.id);

    expect((await t.request('DELETE', `${base}/${production.id}/surveys/${survey.id}`)).status).toBe(200);
    expect((await t.request('GET', `${base}/${production.id}/surveys/${survey.id}`)).status).toBe(404);
  });

  it('lists action classes with the surveys they trigger and when they last fired', async () => {
    const [production] = await environments();
    const survey = (await t.request('POST', `${base}/${production.id}/surveys`, NPS)).body;
    const fired = await t.request('POST', `/api/v1/client/${production.id}/actions`, {
      name: 'Opened pricing',
      userId: 'u1',
    });
    expect(fired.status).toBe(200);
    const classes = (await t.request('GET', `${base}/${production.id}/action-classes`)).body.actionClasses;
    expect(classes.map((a: any) => a.name)).toEqual(
      expect.arrayContaining(['New Session', 'Exit Intent (Desktop)', '50% Scroll', 'Opened pricing']),
    );
    const pricing = classes.find((a: any) => a.name === 'Opened pricing');
    expect(pricing.surveys).toEqual([{ id: survey.id, name: 'NPS' }]);
    expect(pricing.lastFiredAt).toEqual(expect.any(String));
    const inUse = await t.request('DELETE', `${base}/${production.id}/action-classes/${pricing.id}`);
    expect(inUse.status).toBe(400);
    expect(inUse.body.message).toContain('"NPS"');
    const automatic = classes.find((a: any) => a.name === 'New Session');
    expect((await t.request('DELETE', `${base}/${production.id}/action-classes/${automatic.id}`)).status).toBe(400);
    const duplicate = await t.request('POST', `${base}/${production.id}/action-classes`, { name: 'Opened pricing' });
    expect(duplicate.status).toBe(409);
    const noRule = await t.request('POST', `${base}/${production.id}/action-classes`, { name: 'x', type: 'noCode' });
    expect(noRule.body.message).toBe('is required for a noCode action class');
  });

  it('edits an action class: its rule reaches the next sync; a used one keeps its name', async () => {
    const [production] = await environments();
    const classes = `${base}/${production.id}/action-classes`;
    const pageRule = (value: string) => ({ type: 'pageUrl', pageUrl: { value, rule: 'contains' } });
    const created = (
      await t.request('POST', classes, { name: 'Pricing', type: 'noCode', noCodeConfig: pageRule('/pricing') })
    ).body;
    const edited = await t.request('PUT', `${classes}/${created.id}`, {
      name: 'Plans',
      description: 'Opened the plans',
      type: 'noCode',
      noCodeConfig: pageRule('/plans'),
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ id: created.id, name: 'Plans', description: 'Opened the plans' });
    const sync = await t.request('GET', `/api/v1/client/${production.id}/in-app/sync`);
    const synced = sync.body.data.noCodeActionClasses.find((a: any) => a.id === created.id);
    expect(synced).toMatchObject({ name: 'Plans', noCodeConfig: pageRule('/plans') });

    await t.request('POST', `${base}/${production.id}/surveys`, { ...NPS, triggers: ['Plans'] });
    const rename = await t.request('PUT', `${classes}/${created.id}`, { name: 'Other', type: 'code' });
    expect(rename.status).toBe(400);
    expect(rename.body.message).toContain('"NPS"');
    const automatic = (await t.request('GET', classes)).body.actionClasses.find((a: any) => a.type === 'automatic');
    expect((await t.request('PUT', `${classes}/${automatic.id}`, { name: automatic.name })).status).toBe(400);
    const invalid = await t.request('PUT', `${classes}/${created.id}`, { name: 'Plans', type: 'noCode' });
    expect(invalid.body.message).toBe('is required for a noCode action class');
    expect((await t.request('GET', classes)).body.actionClasses.find((a: any) => a.id === created.id)).toMatchObject({
      name: 'Plans',
      noCodeConfig: pageRule('/plans'),
    });
  });
});

describe.each(dialects)('the console survey API with authentication on %s', (dialect) => {
  let t: AuthTestApp;
  const BOOTSTRAP = 'surveys-bootstrap-token';
  beforeAll(async () => {
    t = await startAuthApp(dialect, {
      required: true,
      methods: { token: { enabled: true, bootstrap: { token: BOOTSTRAP } } },
    });
  });
  afterAll(() => t.close());

  it('lets a namespace-scoped token see only its namespace environments', async () => {
    const admin = (method: string, url: string, payload?: unknown) =>
      asToken(t.app, BOOTSTRAP, { method: method as 'GET', url, payload: payload as object });
    for (const key of ['team-a', 'team-b']) {
      expect((await admin('POST', '/api/v1/namespaces', { key, name: key })).statusCode).toBe(200);
      expect((await admin('POST', `/api/v1/namespaces/${key}/surveys/environments`, {})).statusCode).toBe(200);
    }
    const token = (
      await admin('POST', '/auth/v1/method/token', { name: 'a', description: '', namespaceKey: 'team-a' })
    ).json().clientToken;
    const get = (url: string) => asToken(t.app, token, { method: 'GET', url });
    expect((await get('/api/v1/namespaces/team-a/surveys/environments')).statusCode).toBe(200);
    expect((await get('/api/v1/namespaces/team-b/surveys/environments')).statusCode).toBe(401);
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/v1/namespaces/team-a/surveys/environments' });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe.each(dialects)('the console survey API in read-only mode on %s', (dialect) => {
  let t: SurveyTestApp;
  beforeAll(async () => {
    t = await startSurveyApp(dialect, (config) => {
      config.storage.readOnly = true;
    });
  });
  afterAll(() => t.close());

  it('reads but refuses every write', async () => {
    const base = '/api/v1/namespaces/default/surveys/environments';
    // A survey request seeds the demo environment (a server seeds it a moment after it listens).
    expect((await t.request('GET', `/api/v1/client/${ENV}/in-app/sync`)).status).toBe(200);
    expect((await t.request('GET', base)).status).toBe(200);
    expect((await t.request('GET', `${base}/${ENV}/surveys`)).status).toBe(200);
    for (const [method, url, body] of [
      ['POST', base, {}],
      ['POST', `${base}/${ENV}/surveys`, NPS],
      ['POST', `${base}/${ENV}/api-keys`, { label: 'x' }],
      ['PUT', `${base}/${ENV}/product`, { name: 'x' }],
    ] as const) {
      const answer = await t.request(method, url, body);
      expect(answer.status, `${method} ${url}`).toBe(403);
      expect(answer.body).toEqual({ code: 7, message: READ_ONLY_STORAGE, details: [] });
    }
  });
});

describe.each(dialects)('seeded environments on %s', (dialect) => {
  let t: SurveyTestApp;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ensign-seed-ns-'));
    writeFileSync(
      join(dir, 'seed.yml'),
      'environments:\n  - id: cseededshopenvironment01\n    namespace: shop\n  - id: cseededdefaultenvironmnt\n',
    );
    t = await startSurveyApp(dialect, (config) => {
      config.surveys.seedFile = join(dir, 'seed.yml');
    });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('belong to the namespace the seed names, default otherwise', async () => {
    const ids = async (namespaceKey: string) =>
      (await t.request('GET', `/api/v1/namespaces/${namespaceKey}/surveys/environments`)).body.environments.map(
        (e: any) => e.id,
      );
    expect(await ids('shop')).toEqual(['cseededshopenvironment01']);
    expect(await ids('default')).toContain('cseededdefaultenvironmnt');
    expect(await ids('default')).not.toContain('cseededshopenvironment01');
  });
});
