import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../server/app.js';
import { openDatabase } from '../../../server/db/index.js';
import { dialects } from '../support.js';
import { CLIENT, startSurveyApp, type SurveyTestApp } from './support.js';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver on loopback that answers `status` (500 while "down") and records what it is sent. */
async function receiver() {
  const received: Received[] = [];
  let status = 200;
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      if (status === 200) received.push({ headers: request.headers, body });
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    setStatus: (value: number) => {
      status = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
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
    t = await startSurveyApp(dialect);
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
