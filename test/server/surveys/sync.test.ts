import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../server/app.js';
import { defaultConfig } from '../../../server/config/index.js';
import { openDatabase } from '../../../server/db/index.js';
import { ChangeFeed } from '../../../server/changes.js';
import { parseSurveyInput } from '../../../server/surveys/documents.js';
import { SURVEY_CONTENT, SurveyStore } from '../../../server/surveys/store/index.js';
import { createTestDatabase, dialects, postgresUrl, type TestDatabase } from '../support.js';
import { API_KEY, CLIENT, ENV, startSurveyApp, type SurveyTestApp } from './support.js';

const survey = (name: string) => ({
  name,
  triggers: ['New Session'],
  questions: [{ id: 'q', type: 'openText', headline: 'Why?', required: true }],
});
const surveyNames = (body: { data: { surveys: { name: string }[] } }) => body.data.surveys.map((s) => s.name);

/** The kept sync answers (server/surveys/sync.ts) never outlive a change to what they hold. */
describe.each(dialects)('the widget sync, kept per content revision, on %s', (dialect) => {
  let t: SurveyTestApp;
  beforeAll(async () => {
    t = await startSurveyApp(dialect);
  });
  afterAll(() => t.close());

  it('answers 304 to the ETag it gave while nothing changed, and a new answer after a change through the management API', async () => {
    const first = await t.request('GET', `${CLIENT}/in-app/sync`);
    const etag = first.headers.etag as string;
    const again = await t.request('GET', `${CLIENT}/in-app/sync`, undefined, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.headers.etag).toBe(etag);

    const created = await t.management('POST', '/surveys', survey('Added'));
    const after = await t.request('GET', `${CLIENT}/in-app/sync`, undefined, { 'if-none-match': etag });
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(etag);
    expect(surveyNames(after.body)).toContain('Added');
    expect(surveyNames((await t.request('GET', `${CLIENT}/in-app/sync/kept-user?version=1.6.5`)).body)).toContain(
      'Added',
    );

    await t.management('PUT', `/surveys/${created.body.data.id}`, { name: 'Renamed' });
    expect(surveyNames((await t.request('GET', `${CLIENT}/in-app/sync`)).body)).toContain('Renamed');
    await t.management('DELETE', `/surveys/${created.body.data.id}`);
    const names = surveyNames((await t.request('GET', `${CLIENT}/in-app/sync`)).body);
    expect(names).not.toContain('Renamed');
    expect(surveyNames((await t.request('GET', `${CLIENT}/in-app/sync/kept-user?version=1.6.5`)).body)).not.toContain(
      'Renamed',
    );

    await t.management('POST', '/action-classes', {
      name: 'Visited docs',
      type: 'noCode',
      noCodeConfig: { pageUrl: { value: '/docs', rule: 'contains' } },
    });
    const classes = (await t.request('GET', `${CLIENT}/in-app/sync`)).body.data.noCodeActionClasses;
    expect(classes.map((c: { name: string }) => c.name)).toContain('Visited docs');
  });

  it('sees a write made by any store function: published once it commits, not for visitor writes', async () => {
    const changes = new ChangeFeed();
    const database = await openDatabase(t.database.url, { migrate: false });
    try {
      const store = new SurveyStore(database, changes);
      // What a listener reads when told: the write has committed by then.
      const reads: Promise<string[]>[] = [];
      changes.subscribe((key) => {
        if (key === SURVEY_CONTENT) reads.push(store.surveys(ENV).then((surveys) => surveys.map((s) => s.name)));
      });

      const saved = await store.saveSurvey(ENV, 'Written by the store', parseSurveyInput(survey('x')).document);
      expect(reads).toHaveLength(1);
      expect(await reads[0]).toContain('Written by the store');
      await store.deleteSurvey(saved.id);
      expect(reads).toHaveLength(2);
      expect(await reads[1]).not.toContain('Written by the store');

      const personId = await store.ensurePerson(ENV, 'visitor-writes');
      await store.updateAttributes(personId, { plan: 'pro' });
      await store.createDisplay(ENV, 'clensigndemosurveywelcom', personId);
      expect(reads).toHaveLength(2);
      await store.markWidgetSetupCompleted(ENV);
      expect(reads).toHaveLength(3);
    } finally {
      await database.close();
    }
  });

  it("reads a visitor's person, attributes and displays (newest first) in one go, and nothing for an unknown user", async () => {
    const database = await openDatabase(t.database.url, { migrate: false });
    try {
      const store = new SurveyStore(database, new ChangeFeed());
      expect(await store.visitor(ENV, 'nobody-yet')).toBeUndefined();

      const bare = await store.ensurePerson(ENV, 'visitor-bare');
      expect(await store.visitor(ENV, 'visitor-bare')).toEqual({ personId: bare, attributes: {}, displays: [] });

      const personId = await store.ensurePerson(ENV, 'visitor-full');
      await store.updateAttributes(personId, { plan: 'pro', email: 'a@example.com', seats: '12' });
      const first = await store.createDisplay(ENV, 'clensigndemosurveywelcom', personId);
      await new Promise((resolve) => setTimeout(resolve, 5));
      await store.createDisplay(ENV, 'clensigndemosurveyallqts', personId);
      const responseId = await store.createResponse({
        environmentId: ENV,
        surveyId: 'clensigndemosurveywelcom',
        personId,
        finished: true,
        data: {},
        meta: {},
        personAttributes: null,
      });
      await store.updateDisplay(first, { responseId });

      const read = await store.visitor(ENV, 'visitor-full');
      const [attributes, displays] = await Promise.all([store.attributes(personId), store.displaysOfPerson(personId)]);
      expect(read?.personId).toBe(personId);
      expect(read?.attributes).toEqual(attributes);
      expect(Object.keys(read!.attributes)).toEqual(['email', 'plan', 'seats']);
      expect(read?.displays).toEqual(
        displays.map(({ surveyId, responseId, createdAt }) => ({ surveyId, responseId, createdAt })),
      );
      expect(read?.displays.map((display) => display.surveyId)).toEqual([
        'clensigndemosurveyallqts',
        'clensigndemosurveywelcom',
      ]);
      expect(read?.displays[1].responseId).toBe(responseId);
    } finally {
      await database.close();
    }
  });
});

/** Two instances on one PostgreSQL database: a change through one is in the other's next sync (LISTEN/NOTIFY). */
describe.skipIf(!postgresUrl)('the widget sync on two instances sharing PostgreSQL', () => {
  let database: TestDatabase;
  let one: FastifyInstance;
  let two: FastifyInstance;
  const sync = async (app: FastifyInstance) =>
    surveyNames((await app.inject({ method: 'GET', url: `${CLIENT}/in-app/sync` })).json());

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    const config = defaultConfig();
    config.db.url = database.url;
    one = await buildApp(config);
    two = await buildApp(config);
    await Promise.all([one.ready(), two.ready()]);
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await database?.drop();
  });

  it('a survey written through one instance is in the next sync of the other once the notification arrives', async () => {
    // Both keep the environment's answer now.
    expect(await sync(one)).toEqual(await sync(two));
    const created = await one.inject({
      method: 'POST',
      url: '/api/v1/management/surveys',
      headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' },
      payload: JSON.stringify(survey('From instance one')),
    });
    expect(created.statusCode).toBe(200);
    await expect.poll(() => sync(two), { timeout: 10_000 }).toContain('From instance one');

    await one.inject({
      method: 'DELETE',
      url: `/api/v1/management/surveys/${created.json().data.id}`,
      headers: { 'x-api-key': API_KEY },
    });
    await expect.poll(() => sync(two), { timeout: 10_000 }).not.toContain('From instance one');
  });
});
