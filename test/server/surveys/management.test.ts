import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../server/app.js';
import { dialects } from '../support.js';
import { CLIENT, startSurveyApp, type SurveyTestApp } from './support.js';

const SEED = `
environments:
  - id: cseededenvironment000001
    product: { name: Shop, brandColor: "#ff0000", placement: center, darkOverlay: true }
    apiKeys: [shop-management-key-0001]
    actionClasses:
      - name: Opened cart
        type: noCode
        noCodeConfig: { innerHtml: { value: Cart } }
    surveys:
      - name: Cart survey
        triggers: [Opened cart]
        questions:
          - { id: why, type: openText, headline: Why?, required: true }
`;

describe.each(dialects)('survey management API and seeding on %s', (dialect) => {
  let t: SurveyTestApp;
  let seedDir: string;
  beforeAll(async () => {
    seedDir = mkdtempSync(join(tmpdir(), 'ensign-seed-'));
    writeFileSync(join(seedDir, 'surveys.yml'), SEED);
    writeFileSync(join(seedDir, 'surveys.js'), 'window.formbricksSurveys = {};');
    writeFileSync(join(seedDir, 'formbricks.js'), 'var formbricks = {};');
    writeFileSync(join(seedDir, 'formbricks-survey.mjs'), 'export default function surveyChunk() {}');
    t = await startSurveyApp(dialect, (config) => {
      config.surveys.seedFile = join(seedDir, 'surveys.yml');
      config.paths.widget = seedDir;
    });
  });
  afterAll(async () => {
    await t.close();
    rmSync(seedDir, { recursive: true, force: true });
  });

  it('creates, reads, updates and deletes surveys, naming the field of an invalid one', async () => {
    const created = await t.management('POST', '/surveys', {
      name: 'Managed',
      triggers: ['Managed action'],
      questions: [{ id: 'r', type: 'rating', headline: 'Rate', scale: 'star', range: 5 }],
    });
    expect(created.status).toBe(200);
    const survey = created.body.data;
    expect(survey).toMatchObject({
      name: 'Managed',
      status: 'inProgress',
      type: 'web',
      displayOption: 'displayOnce',
      recontactDays: null,
      delay: 0,
      segment: null,
    });
    expect(survey.questions[0]).toMatchObject({ required: true, lowerLabel: '', upperLabel: '' });
    expect((await t.management('GET', '/action-classes')).body.data).toContainEqual(
      expect.objectContaining({ name: 'Managed action', type: 'code' }),
    );

    const updated = await t.management('PUT', `/surveys/${survey.id}`, { status: 'paused' });
    expect(updated.body.data).toMatchObject({ id: survey.id, status: 'paused', name: 'Managed' });
    expect((await t.management('GET', `/surveys/${survey.id}`)).body.data.status).toBe('paused');
    const synced = (await t.request('GET', `${CLIENT}/in-app/sync`)).body.data.surveys.map((s: { id: string }) => s.id);
    expect(synced).not.toContain(survey.id);

    const invalid = await t.management('POST', '/surveys', {
      name: 'Broken',
      questions: [{ id: 'r', type: 'rating', headline: 'Rate', scale: 'stars', range: 6 }],
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.details).toEqual({
      'questions.0.scale': 'must be number, smiley or star',
      'questions.0.range': 'must be 3, 4, 5, 7 or 10',
    });
    const badLogic = await t.management('POST', '/surveys', {
      name: 'Logic',
      questions: [{ id: 'a', type: 'openText', headline: 'A', logic: [{ condition: 'submitted', destination: 'zz' }] }],
    });
    expect(badLogic.body.details).toEqual({
      'questions.0.logic.0.destination': 'must be a later question or the end',
    });
    expect(
      (
        await t.management('POST', '/surveys', {
          name: 'Kind',
          questions: [{ id: 'a', type: 'slider', headline: 'A' }],
        })
      ).body.details['questions.0.type'],
    ).toContain('must be one of openText');

    expect((await t.management('DELETE', `/surveys/${survey.id}`)).body.data.id).toBe(survey.id);
    expect((await t.management('GET', `/surveys/${survey.id}`)).status).toBe(404);
  });

  it('manages action classes: noCode needs its config, names are unique', async () => {
    const missing = await t.management('POST', '/action-classes', { name: 'Broken', type: 'noCode' });
    expect(missing.status).toBe(400);
    expect(missing.body.details).toEqual({ noCodeConfig: 'is required for a noCode action class' });
    const rule = await t.management('POST', '/action-classes', {
      name: 'Docs',
      type: 'noCode',
      noCodeConfig: { pageUrl: { value: '/docs', rule: 'matches' } },
    });
    expect(rule.body.details['noCodeConfig.pageUrl.rule']).toContain('exactMatch');
    const created = await t.management('POST', '/action-classes', {
      name: 'Docs',
      type: 'noCode',
      noCodeConfig: { pageUrl: { value: '/docs', rule: 'contains' } },
    });
    expect(created.body.data).toMatchObject({
      name: 'Docs',
      type: 'noCode',
      noCodeConfig: { pageUrl: { value: '/docs', rule: 'contains' } },
    });
    expect((await t.management('POST', '/action-classes', { name: 'Docs', type: 'code' })).status).toBe(400);
    expect((await t.management('GET', `/action-classes/${created.body.data.id}`)).body.data.name).toBe('Docs');
    expect((await t.management('DELETE', `/action-classes/${created.body.data.id}`)).status).toBe(200);
    expect((await t.management('GET', `/action-classes/${created.body.data.id}`)).status).toBe(404);
  });

  it('lists and deletes responses and people of its own environment only', async () => {
    const surveyId = 'clensigndemosurveyclicks';
    const response = await t.request('POST', `${CLIENT}/responses`, {
      surveyId,
      userId: 'mgmt-user',
      finished: true,
      data: { feedback: 'ok' },
    });
    const list = (await t.management('GET', `/responses?surveyId=${surveyId}`)).body.data;
    expect(list.map((r: { id: string }) => r.id)).toEqual([response.body.data.id]);

    const shop = (path: string, method = 'GET') =>
      t.request(method, `/api/v1/management${path}`, undefined, { 'x-api-key': 'shop-management-key-0001' });
    const elsewhere = await t.request(
      'PUT',
      `/api/v1/client/cseededenvironment000001/responses/${response.body.data.id}`,
      { finished: true, data: { feedback: 'hijacked' } },
    );
    expect(elsewhere.status).toBe(404);
    expect((await shop(`/responses/${response.body.data.id}`)).status).toBe(404);
    expect((await shop('/responses')).body.data).toEqual([]);

    const person = (await t.management('GET', '/people')).body.data.find(
      (p: { userId: string }) => p.userId === 'mgmt-user',
    );
    expect((await t.management('GET', `/people/${person.id}`)).body.data.userId).toBe('mgmt-user');
    expect((await shop(`/people/${person.id}`, 'DELETE')).status).toBe(404);
    expect((await t.management('DELETE', `/people/${person.id}`)).status).toBe(200);
    expect((await t.management('GET', `/responses/${response.body.data.id}`)).body.data.person).toBeNull();
    expect((await t.management('DELETE', `/responses/${response.body.data.id}`)).status).toBe(200);
    expect((await t.management('GET', `/responses/${response.body.data.id}`)).status).toBe(404);
  });

  it('seeds environments from the YAML file, and seeding again changes nothing', async () => {
    const sync = (await t.request('GET', '/api/v1/client/cseededenvironment000001/in-app/sync')).body.data;
    expect(sync.product).toMatchObject({
      name: 'Shop',
      brandColor: '#ff0000',
      placement: 'center',
      darkOverlay: true,
      recontactDays: 7,
    });
    expect(sync.surveys).toEqual([expect.objectContaining({ name: 'Cart survey', triggers: ['Opened cart'] })]);
    expect(sync.noCodeActionClasses).toEqual([
      expect.objectContaining({ name: 'Opened cart', noCodeConfig: { innerHtml: { value: 'Cart' } } }),
    ]);

    // On PostgreSQL, two more instances seed the same database at once, as servers behind a balancer would.
    const again =
      dialect === 'postgres' ? await Promise.all([buildApp(t.config), buildApp(t.config)]) : [await buildApp(t.config)];
    for (const app of again) await app.close();
    const after = (await t.request('GET', '/api/v1/client/cseededenvironment000001/in-app/sync')).body.data;
    expect(after.surveys.map((s: { id: string }) => s.id)).toEqual(sync.surveys.map((s: { id: string }) => s.id));
    const demo = (await t.request('GET', `${CLIENT}/in-app/sync`)).body.data.surveys;
    expect(demo.filter((s: { name: string }) => s.name === 'Welcome (New Session)')).toHaveLength(1);
  });

  it('stops the start-up with a message naming the bad seed entry', async () => {
    const bad = join(seedDir, 'bad.yml');
    writeFileSync(
      bad,
      'environments:\n  - id: cseededenvironment000002\n    surveys:\n      - name: X\n        questions:\n          - { id: q, type: nps }\n',
    );
    await expect(buildApp({ ...t.config, surveys: { ...t.config.surveys, seedFile: bad } })).rejects.toThrow(
      `${bad}: environments.0.surveys.0.questions.0.headline`,
    );
    writeFileSync(bad, 'environments:\n  - id: NOT-A-CUID\n');
    await expect(buildApp({ ...t.config, surveys: { ...t.config.surveys, seedFile: bad } })).rejects.toThrow(
      `${bad}: environments.0.id Invalid cuid`,
    );
  });

  it('serves the built loader and renderer where Formbricks and our snippets look for them', async () => {
    const renderer = await t.app.inject({ method: 'GET', url: '/api/js?module=surveys&format=umd' });
    expect(renderer.statusCode).toBe(200);
    expect(renderer.headers['content-type']).toContain('application/javascript');
    expect(renderer.body).toContain('formbricksSurveys');
    for (const url of ['/js/formbricks.js', '/js/formbricks.umd.cjs', '/api/js?module=js']) {
      const loader = await t.app.inject({ method: 'GET', url });
      expect(loader.statusCode).toBe(200);
      expect(loader.body).toContain('formbricks');
    }
    const selfStarting = await t.app.inject({
      method: 'GET',
      url: '/api/js?module=js&environmentId=clensigndemoenvironment0',
      headers: { host: 'surveys.example:8080' },
    });
    expect(selfStarting.body).toMatch(
      /^var formbricks = \{\};\n;window\.formbricks\.init\(\{"environmentId":"clensigndemoenvironment0","apiHost":"http:\/\/surveys\.example:8080"\}\);\n$/,
    );
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/js?module=js&environmentId=x");alert(1);//' })).statusCode,
    ).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/js/other.js' })).json()).toMatchObject({ code: 'not_found' });
    expect((await t.app.inject({ method: 'GET', url: '/api/js?module=question-date' })).statusCode).toBe(404);
  });

  it("serves the loader's survey chunk next to each loader URL", async () => {
    // the loader resolves it against its own URL: /js/formbricks.js, /js/formbricks.umd.cjs, /api/js?module=js
    for (const loaderUrl of ['/js/formbricks.js', '/js/formbricks.umd.cjs', '/api/js?module=js']) {
      const url = new URL('formbricks-survey.mjs', `http://localhost${loaderUrl}`).pathname;
      const chunk = await t.app.inject({ method: 'GET', url });
      expect(chunk.statusCode, url).toBe(200);
      // a module script: a JavaScript MIME type, and CORS for host pages on other origins
      expect(chunk.headers['content-type']).toContain('application/javascript');
      expect(chunk.headers['access-control-allow-origin']).toBe('*');
      expect(chunk.body).toBe('export default function surveyChunk() {}');
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/formbricks.mjs' })).statusCode).toBe(404);
  });

  it('serves the demo host page at /demo/ with a policy that runs only its own scripts', async () => {
    for (const url of ['/demo/', '/demo', '/demo/demo.js']) {
      const page = await t.app.inject({ method: 'GET', url });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-security-policy']).toContain("script-src 'self';");
      expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    }
    expect((await t.app.inject({ method: 'GET', url: '/demo/' })).headers['content-type']).toContain('text/html');
  });

  it('does not serve the demo page when the demo is off', async () => {
    const off = await startSurveyApp(dialect, (config) => {
      config.surveys.demo = false;
    });
    try {
      for (const url of ['/demo/', '/demo', '/demo/demo.js']) {
        expect((await off.app.inject({ method: 'GET', url })).statusCode).toBe(404);
      }
    } finally {
      await off.close();
    }
  });
});
