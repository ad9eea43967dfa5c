import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../server/app.js';
import { type Database, openDatabase } from '../../../server/db/index.js';
import { saveWebhook } from '../../../server/surveys/store/webhooks.js';
import {
  MAX_PENDING_PER_WEBHOOK,
  MAX_WEBHOOKS_PER_ENVIRONMENT,
  PAUSE_AFTER_FAILURES,
} from '../../../server/surveys/webhooks.js';
import { dialects } from '../support.js';
import { CLIENT, ENV, startSurveyApp, type SurveyTestApp } from './support.js';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A receiver on loopback (IPv4 and IPv6) that answers `status` (500 while "down", or never with
 * `silent`), records what it is sent and counts the requests it holds open.
 */
async function receiver() {
  const received: Received[] = [];
  let status: number | 'silent' = 200;
  const held = new Set<ServerResponse>();
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      if (status === 'silent') {
        held.add(response);
        response.on('close', () => held.delete(response));
        return;
      }
      if (status === 200) received.push({ headers: request.headers, body });
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '::', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}/hook`,
    received,
    open: () => held.size,
    /** A status other than `silent` also drops the requests held so far. */
    setStatus: (value: number | 'silent') => {
      status = value;
      if (value !== 'silent') for (const response of held) response.destroy();
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const until = async (check: () => boolean | Promise<boolean>) => {
  for (let i = 0; i < 200 && !(await check()); i++) await new Promise((resolve) => setTimeout(resolve, 50));
};

describe.each(dialects)('survey webhooks on %s', (dialect) => {
  let t: SurveyTestApp;
  let hook: Awaited<ReturnType<typeof receiver>>;
  let restarted: FastifyInstance | undefined;
  const surveyId = 'clensigndemosurveyclicks';
  beforeAll(async () => {
    t = await startSurveyApp(dialect, (config) => {
      config.surveys.webhooksAllowInternalAddresses = true;
    });
    hook = await receiver();
  });
  afterAll(async () => {
    await restarted?.close();
    await t.close();
    await hook.close();
  });

  it('delivers each event once, signed with HMAC-SHA256, and retries after the receiver was down across a restart', async () => {
    const created = await t.management('POST', '/webhooks', {
      url: hook.url,
      triggers: ['responseCreated', 'responseUpdated', 'responseFinished'],
      surveyIds: [surveyId],
    });
    expect(created.status).toBe(200);
    const { secret, id: webhookId } = created.body.data;
    expect(secret).toMatch(/^whsec_/);
    expect(
      (await t.management('POST', '/webhooks', { url: 'ftp://x', triggers: ['responseCreated'] })).body.details,
    ).toEqual({
      url: 'must be an http or https URL',
    });

    const response = await t.request('POST', `${CLIENT}/responses`, {
      surveyId,
      userId: null,
      finished: false,
      data: {},
    });
    const responseId = response.body.data.id;
    await t.request('PUT', `${CLIENT}/responses/${responseId}`, { finished: true, data: { feedback: 'ok' } });
    await until(() => hook.received.length >= 3);
    const events = hook.received.map((r) => JSON.parse(r.body));
    expect(events.map((e) => e.event).sort()).toEqual(['responseCreated', 'responseFinished', 'responseUpdated']);
    expect(events.every((e) => e.webhookId === webhookId && e.data.id === responseId)).toBe(true);
    expect(events.find((e) => e.event === 'responseFinished').data.data).toEqual({ feedback: 'ok' });
    for (const { headers, body } of hook.received) {
      const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
      const expected = createHmac('sha256', key)
        .update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`)
        .digest('base64');
      expect(headers['webhook-signature']).toBe(`v1,${expected}`);
    }
    expect(new Set(hook.received.map((r) => r.headers['webhook-id'])).size).toBe(3);

    // The receiver is down: the attempt fails and stays queued; the server restarts meanwhile.
    hook.setStatus(500);
    hook.received.length = 0;
    const later = await t.request('POST', `${CLIENT}/responses`, { surveyId, userId: null, finished: true, data: {} });
    const database = await openDatabase(t.database.url, { migrate: false });
    try {
      const failed = async () =>
        (await database.db.selectFrom('survey_webhook_deliveries').selectAll().where('attempts', '>=', 1).execute())
          .length === 2;
      await until(failed);
      expect(await failed()).toBe(true);
      await t.app.close();
      hook.setStatus(200);
      // Due now rather than after the backoff.
      await database.db
        .updateTable('survey_webhook_deliveries')
        .set({ next_attempt_at: '2000-01-01T00:00:00.000Z' })
        .execute();
      restarted = await buildApp(t.config);
      await restarted.ready();
      await until(() => hook.received.length >= 2);
      await until(
        async () => (await database.db.selectFrom('survey_webhook_deliveries').selectAll().execute()).length === 0,
      );
      expect((await database.db.selectFrom('survey_webhook_deliveries').selectAll().execute()).length).toBe(0);
    } finally {
      await database.close();
    }
    const redelivered = hook.received.map((r) => JSON.parse(r.body));
    expect(redelivered.map((e) => e.event).sort()).toEqual(['responseCreated', 'responseFinished']);
    expect(redelivered.every((e) => e.data.id === later.body.data.id)).toBe(true);
  });
});

const CONSOLE = `/api/v1/namespaces/default/surveys/environments/${ENV}`;
const CLICKS = 'clensigndemosurveyclicks';
const WELCOME = 'clensigndemosurveywelcom';
const OTHER_ENVIRONMENT = 'clensignotherenvironment';
const OTHER_KEY = 'other-environment-api-key';
const OTHER_SURVEY = 'clensignothersurvey00000';
/** A second tenant, seeded beside the demo environment. */
const OTHER_ENVIRONMENT_SEED = {
  environments: [
    {
      id: OTHER_ENVIRONMENT,
      product: { name: 'Other tenant' },
      apiKeys: [OTHER_KEY],
      surveys: [
        {
          id: OTHER_SURVEY,
          name: 'Feedback',
          status: 'inProgress',
          type: 'web',
          triggers: ['New Session'],
          questions: [{ id: 'feedback', type: 'openText', headline: 'Anything?', required: false, inputType: 'text' }],
        },
      ],
    },
  ],
};
/** An address no rule refuses (TEST-NET-3): saving a webhook does not connect to it. */
const PUBLIC_URL = 'https://203.0.113.10/hook';

/** The receiver's port as loopback and unspecified addresses are written, odd IPv4 spellings included. */
const loopbackForms = (port: number) => [
  `http://127.0.0.1:${port}/`,
  `http://localhost:${port}/`,
  `http://127.1:${port}/`,
  `http://2130706433:${port}/`,
  `http://0x7f000001:${port}/`,
  `http://017700000001:${port}/`,
  `http://[::1]:${port}/`,
  `http://[::ffff:127.0.0.1]:${port}/`,
  `http://[::127.0.0.1]:${port}/`,
  `http://0.0.0.0:${port}/`,
  `http://[::]:${port}/`,
];
const otherInternalForms = [
  'http://10.1.2.3/',
  'http://172.16.0.1/',
  'http://192.168.0.1/',
  'http://169.254.169.254/latest/meta-data/',
  'http://100.64.0.1/',
  'http://[fe80::1]/',
  'http://[fd00::1]/',
  'http://[::ffff:10.0.0.1]/',
];

/** Deliveries of the database, with their webhooks' URLs. */
const deliveries = (database: Database) =>
  database.db
    .selectFrom('survey_webhook_deliveries as d')
    .innerJoin('survey_webhooks as w', 'w.id', 'd.webhook_id')
    .select(['d.id', 'd.webhook_id', 'd.payload_id', 'd.attempts', 'd.last_error', 'd.status', 'w.url'])
    .execute();

describe.each(dialects)('survey webhook targets on %s', (dialect) => {
  let t: SurveyTestApp;
  let hook: Awaited<ReturnType<typeof receiver>>;
  let database: Database;
  beforeAll(async () => {
    t = await startSurveyApp(dialect);
    hook = await receiver();
    database = await openDatabase(t.database.url, { migrate: false });
  });
  afterAll(async () => {
    await database.close();
    await t.close();
    await hook.close();
  });

  it('refuses loopback, private, link-local, CGNAT and unspecified addresses in any spelling when saved', async () => {
    for (const url of [...loopbackForms(hook.port), ...otherInternalForms]) {
      for (const saved of [
        await t.management('POST', '/webhooks', { url, triggers: ['responseCreated'] }),
        await t.request('POST', `${CONSOLE}/webhooks`, { url, triggers: ['responseCreated'] }),
      ]) {
        expect(saved.status, url).toBe(400);
        expect(saved.body.details.url, url).toMatch(
          /^must not be an internal address: .* is loopback, private, link-local or reserved \(surveys\.webhooks_allow_internal_addresses allows them\)$/,
        );
      }
    }
    const created = await t.request('POST', `${CONSOLE}/webhooks`, { url: PUBLIC_URL, triggers: ['responseCreated'] });
    expect(created.status).toBe(200);
    const changed = await t.request('PUT', `${CONSOLE}/webhooks/${created.body.data.id}`, {
      url: 'http://127.1/',
      triggers: ['responseCreated'],
    });
    expect(changed.status).toBe(400);
    expect((await t.management('GET', '/webhooks')).body.data.map((w: { url: string }) => w.url)).toEqual([PUBLIC_URL]);
    await t.management('DELETE', `/webhooks/${created.body.data.id}`);
  });

  it('refuses them again at delivery, and says only "refused address"', async () => {
    // Stored as a server with the opt-in (or an older version) would have.
    for (const url of loopbackForms(hook.port)) {
      await saveWebhook(database, ENV, { url, triggers: ['responseCreated'], surveyIds: [CLICKS] });
    }
    await t.request('POST', `${CLIENT}/responses`, { surveyId: CLICKS, userId: null, finished: false, data: {} });
    const tried = async () => (await deliveries(database)).every((delivery) => delivery.attempts >= 1);
    await until(tried);
    const rows = await deliveries(database);
    expect(rows).toHaveLength(loopbackForms(hook.port).length);
    for (const row of rows) expect(row.last_error, row.url).toBe('refused address');
    expect(hook.received).toEqual([]);
    await database.db.deleteFrom('survey_webhooks').execute();
  });

  it(`caps an environment at ${MAX_WEBHOOKS_PER_ENVIRONMENT} webhooks, naming the cap`, async () => {
    for (let i = 0; i < MAX_WEBHOOKS_PER_ENVIRONMENT; i++) {
      expect((await t.management('POST', '/webhooks', { url: PUBLIC_URL, triggers: ['responseCreated'] })).status).toBe(
        200,
      );
    }
    for (const refused of [
      await t.management('POST', '/webhooks', { url: PUBLIC_URL, triggers: ['responseCreated'] }),
      await t.request('POST', `${CONSOLE}/webhooks`, { url: PUBLIC_URL, triggers: ['responseCreated'] }),
    ]) {
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe(`An environment holds at most ${MAX_WEBHOOKS_PER_ENVIRONMENT} webhooks`);
    }
    // Changing one is no new one.
    const [first] = (await t.request('GET', `${CONSOLE}/webhooks`)).body.data;
    const changed = await t.request('PUT', `${CONSOLE}/webhooks/${first.id}`, {
      url: PUBLIC_URL,
      triggers: ['responseFinished'],
    });
    expect(changed.status).toBe(200);
    await database.db.deleteFrom('survey_webhooks').execute();
  });
});

describe.each(dialects)('survey webhook delivery to internal addresses allowed on %s', (dialect) => {
  let t: SurveyTestApp;
  let hook: Awaited<ReturnType<typeof receiver>>;
  let other: Awaited<ReturnType<typeof receiver>>;
  let database: Database;
  beforeAll(async () => {
    t = await startSurveyApp(dialect, (config) => {
      config.surveys.webhooksAllowInternalAddresses = true;
      config.surveys.seedFile = join(config.surveys.uploadDir, 'other-environment.json');
      writeFileSync(config.surveys.seedFile, JSON.stringify(OTHER_ENVIRONMENT_SEED));
    });
    hook = await receiver();
    other = await receiver();
    database = await openDatabase(t.database.url, { migrate: false });
    // The demo environment is seeded by the first request to the survey APIs, which the console's are not.
    await t.management('GET', '/me');
  });
  afterEach(async () => {
    hook.setStatus(200);
    hook.received.length = 0;
    other.received.length = 0;
    await database.db.deleteFrom('survey_webhooks').execute();
    await database.db.deleteFrom('survey_webhook_payloads').execute();
  });
  afterAll(async () => {
    await database.close();
    await hook.close();
    await other.close();
    await t.close();
  });

  const create = async (url: string, surveyIds: string[], triggers = ['responseCreated', 'responseFinished']) => {
    const created = await t.request('POST', `${CONSOLE}/webhooks`, { url, triggers, surveyIds });
    expect(created.status).toBe(200);
    return created.body.data as { id: string };
  };
  const respond = (surveyId: string, finished = true) =>
    t.request('POST', `${CLIENT}/responses`, { surveyId, userId: null, finished, data: { feedback: 'ok' } });

  it('shows delivery failures as coarse classes: no port-scan oracle', async () => {
    const closed = await receiver();
    await closed.close();
    const refused = await create(`http://127.0.0.1:${closed.port}/hook`, [CLICKS], ['responseCreated']);
    hook.setStatus(404);
    const answered = await create(hook.url, [CLICKS], ['responseCreated']);
    await respond(CLICKS, false);
    const tried = async () => (await deliveries(database)).every((delivery) => delivery.attempts >= 1);
    await until(tried);
    const errors = Object.fromEntries((await deliveries(database)).map((row) => [row.webhook_id, row.last_error]));
    expect(errors).toEqual({ [refused.id]: 'connection failed', [answered.id]: 'HTTP 4xx' });
    const listed = await t.request('GET', `${CONSOLE}/webhooks/${refused.id}/deliveries`);
    expect(listed.body.data.map((d: { lastError: string }) => d.lastError)).toEqual(['connection failed']);
  });

  it('delivers from a pool: a receiver that never answers holds two places and delays no other webhook', async () => {
    hook.setStatus('silent');
    await create(hook.url, [CLICKS]);
    await create(other.url, [WELCOME]);
    // 26 deliveries to the silent receiver, queued before the other webhook's.
    for (let i = 0; i < 13; i++) await respond(CLICKS);
    await until(() => hook.open() > 0);
    await respond(WELCOME, false);
    await until(() => other.received.length === 1);
    expect(other.received).toHaveLength(1);
    // The silent receiver still holds the requests it took when the other delivery arrived: two at most.
    expect(hook.open()).toBeGreaterThan(0);
    expect(hook.open()).toBeLessThanOrEqual(2);
    hook.setStatus(200);
  });

  it("takes at most four places for an environment's webhooks: receivers that never answer delay no other environment", async () => {
    hook.setStatus('silent');
    for (let i = 0; i < 3; i++) await create(hook.url, [CLICKS]);
    const otherHook = await t.request(
      'POST',
      '/api/v1/management/webhooks',
      { url: other.url, triggers: ['responseCreated'] },
      { 'x-api-key': OTHER_KEY },
    );
    expect(otherHook.status).toBe(200);
    // 78 deliveries to the silent receiver, queued before the other environment's.
    for (let i = 0; i < 13; i++) await respond(CLICKS);
    await until(() => hook.open() > 0);
    const otherResponse = await t.request('POST', `/api/v1/client/${OTHER_ENVIRONMENT}/responses`, {
      surveyId: OTHER_SURVEY,
      userId: null,
      finished: false,
      data: {},
    });
    expect(otherResponse.status).toBe(200);
    await until(() => other.received.length === 1);
    expect(other.received.map((r) => JSON.parse(r.body).data.id)).toEqual([otherResponse.body.data.id]);
    expect(hook.open()).toBeGreaterThan(0);
    expect(hook.open()).toBeLessThanOrEqual(4);
    hook.setStatus(200);
  });

  it(`pauses a webhook after ${PAUSE_AFTER_FAILURES} failed attempts in a row, shows it and resumes it`, async () => {
    hook.setStatus(500);
    const created = await create(hook.url, [CLICKS]);
    for (let i = 0; i < PAUSE_AFTER_FAILURES / 2; i++) await respond(CLICKS);
    const paused = async () => (await t.request('GET', `${CONSOLE}/webhooks`)).body.data[0].pausedAt !== null;
    await until(paused);
    expect(await paused()).toBe(true);
    expect((await deliveries(database)).map((row) => row.attempts)).toEqual(Array(PAUSE_AFTER_FAILURES).fill(1));
    hook.setStatus(200);
    const resumed = await t.request('POST', `${CONSOLE}/webhooks/${created.id}/resume`);
    expect(resumed.status).toBe(200);
    expect(resumed.body.data.pausedAt).toBeNull();
    await until(() => hook.received.length === PAUSE_AFTER_FAILURES);
    await until(async () => (await deliveries(database)).length === 0);
    expect(hook.received).toHaveLength(PAUSE_AFTER_FAILURES);
    expect(await deliveries(database)).toEqual([]);
  });

  it('stores a response once for all its deliveries, and deletes it once they are done', async () => {
    hook.setStatus(500);
    const hooks = [await create(hook.url, [CLICKS]), await create(hook.url, []), await create(hook.url, [CLICKS])];
    const response = await respond(CLICKS);
    await until(async () => (await deliveries(database)).every((delivery) => delivery.attempts >= 1));
    const payloads = await database.db.selectFrom('survey_webhook_payloads').selectAll().execute();
    expect(payloads).toHaveLength(1);
    expect(JSON.parse(payloads[0].data).id).toBe(response.body.data.id);
    const rows = await deliveries(database);
    expect(rows).toHaveLength(6);
    expect(new Set(rows.map((row) => row.payload_id))).toEqual(new Set([payloads[0].id]));

    hook.setStatus(200);
    await database.db
      .updateTable('survey_webhook_deliveries')
      .set({ next_attempt_at: '2000-01-01T00:00:00.000Z' })
      .execute();
    await until(async () => (await deliveries(database)).length === 0);
    const sent = hook.received.map((r) => JSON.parse(r.body));
    expect(sent.map((body) => body.webhookId).sort()).toEqual(hooks.flatMap((h) => [h.id, h.id]).sort());
    expect(sent.every((body) => body.data.id === response.body.data.id && body.data.data.feedback === 'ok')).toBe(true);
    expect(await database.db.selectFrom('survey_webhook_payloads').selectAll().execute()).toEqual([]);
  });

  it(`queues at most ${MAX_PENDING_PER_WEBHOOK} deliveries for a webhook`, async () => {
    hook.setStatus(500);
    const full = await create(hook.url, [CLICKS], ['responseCreated']);
    const room = await create(other.url, [CLICKS], ['responseCreated']);
    const later = '2999-01-01T00:00:00.000Z';
    await database.db
      .insertInto('survey_webhook_payloads')
      .values({ id: 'backlog', environment_id: ENV, data: '{}', created_at: later })
      .execute();
    await database.db
      .insertInto('survey_webhook_deliveries')
      .values(
        Array.from({ length: MAX_PENDING_PER_WEBHOOK }, (_, i) => ({
          id: `backlog${i}`,
          webhook_id: full.id,
          event: 'responseCreated',
          payload_id: 'backlog',
          status: 'pending',
          attempts: 0,
          next_attempt_at: later,
          last_error: null,
          created_at: later,
        })),
      )
      .execute();
    await respond(CLICKS, false);
    await until(() => other.received.length === 1);
    const counts = (await deliveries(database)).reduce(
      (count, row) => count.set(row.webhook_id, (count.get(row.webhook_id) ?? 0) + 1),
      new Map<string, number>(),
    );
    expect(counts.get(full.id)).toBe(MAX_PENDING_PER_WEBHOOK);
    expect(other.received.map((r) => JSON.parse(r.body).webhookId)).toEqual([room.id]);
  });
});
