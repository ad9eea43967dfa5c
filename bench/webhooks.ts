// Survey webhooks under load, in this process on a temporary SQLite database:
// - a dead receiver: 40 deliveries of one environment go to a receiver that accepts connections and never
//   answers; printed is how long another environment's delivery then takes to arrive;
// - many webhooks: as many webhooks as an environment may hold (1,000 asked for) on a receiver that refuses
//   connections, then 3 finished 50 KB responses; printed are each response's time and the database's growth.
// BENCH_WEBHOOKS changes how many webhooks are asked for. Loopback receivers need
// `surveys.webhooks_allow_internal_addresses`, set here.
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../server/app.js';
import { defaultConfig } from '../server/config/index.js';

const DEMO_ENVIRONMENT = 'clensigndemoenvironment0';
const DEMO_KEY = 'ensign-demo-api-key-0000';
const DEMO_SURVEY = 'clensigndemosurveyclicks';
const OTHER_ENVIRONMENT = 'clbenchotherenvironment0';
const OTHER_KEY = 'bench-other-environment-key';
const OTHER_SURVEY = 'clbenchothersurvey000000';
const WEBHOOKS = Number(process.env.BENCH_WEBHOOKS ?? 1000);

const OTHER_SEED = {
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

async function startApp() {
  const dir = mkdtempSync(join(tmpdir(), 'ensign-bench-webhooks-'));
  const seedFile = join(dir, 'seed.json');
  writeFileSync(seedFile, JSON.stringify(OTHER_SEED));
  const config = defaultConfig();
  config.db.url = `file:${join(dir, 'ensign.db')}`;
  config.surveys.seedFile = seedFile;
  config.surveys.uploadDir = join(dir, 'uploads');
  Object.assign(config.surveys, { webhooksAllowInternalAddresses: true });
  config.log.level = 'error';
  const app = await buildApp(config);
  await app.ready();
  const call = async (method: 'GET' | 'POST', url: string, body?: unknown, headers: Record<string, string> = {}) => {
    const answer = await app.inject({
      method,
      url,
      headers: { 'content-type': 'application/json', ...headers },
      payload: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: answer.statusCode, body: answer.json() };
  };
  const databaseBytes = () =>
    ['ensign.db', 'ensign.db-wal'].reduce((sum, name) => {
      try {
        return sum + statSync(join(dir, name)).size;
      } catch {
        return sum;
      }
    }, 0);
  return {
    call,
    databaseBytes,
    close: async () => {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
}

async function deadReceiver() {
  const silent = createServer(() => {
    // accepts the request and never answers
  });
  const deadUrl = await listen(silent);
  let arrived: (at: number) => void;
  const arrival = new Promise<number>((resolve) => {
    arrived = resolve;
  });
  const live = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      arrived(performance.now());
      response.end();
    });
  });
  const liveUrl = await listen(live);
  const t = await startApp();
  try {
    const hook = (key: string, url: string) =>
      t.call('POST', '/api/v1/management/webhooks', { url, triggers: ['responseCreated'] }, { 'x-api-key': key });
    if ((await hook(DEMO_KEY, deadUrl)).status !== 200) throw new Error('the dead receiver webhook was refused');
    if ((await hook(OTHER_KEY, liveUrl)).status !== 200) throw new Error('the live receiver webhook was refused');
    const respond = (environment: string, surveyId: string) =>
      t.call('POST', `/api/v1/client/${environment}/responses`, { surveyId, userId: null, finished: false, data: {} });
    for (let i = 0; i < 40; i++) await respond(DEMO_ENVIRONMENT, DEMO_SURVEY);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const sent = performance.now();
    await respond(OTHER_ENVIRONMENT, OTHER_SURVEY);
    const delay = (await Promise.race([arrival, new Promise<number>((r) => setTimeout(() => r(NaN), 120_000))])) - sent;
    console.log(
      `40 deliveries to a receiver that never answers: the other environment's delivery took ${
        Number.isNaN(delay) ? 'over 120 s' : `${(delay / 1000).toFixed(2)} s`
      }`,
    );
  } finally {
    await t.close();
    silent.closeAllConnections();
    silent.close();
    live.close();
  }
}

async function manyWebhooks() {
  // A port nothing listens on: every delivery fails to connect and stays queued for its retry.
  const closed = createServer();
  const url = await listen(closed);
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const t = await startApp();
  try {
    let created = 0;
    let refusal = '';
    for (; created < WEBHOOKS; created++) {
      const answer = await t.call(
        'POST',
        '/api/v1/management/webhooks',
        { url, triggers: ['responseCreated', 'responseUpdated', 'responseFinished'] },
        { 'x-api-key': DEMO_KEY },
      );
      if (answer.status !== 200) {
        refusal = `${answer.status} ${answer.body.message}`;
        break;
      }
    }
    const before = t.databaseBytes();
    const times: string[] = [];
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const answer = await t.call('POST', `/api/v1/client/${DEMO_ENVIRONMENT}/responses`, {
        surveyId: DEMO_SURVEY,
        userId: null,
        finished: true,
        data: { feedback: 'x'.repeat(50_000) },
      });
      if (answer.status !== 200) throw new Error(`response ${answer.status}`);
      times.push(`${((performance.now() - started) / 1000).toFixed(2)} s`);
    }
    const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
    console.log(
      `${created} webhooks${refusal ? ` (the next refused: ${refusal})` : ''}, 3 finished 50 KB responses: ` +
        `each took ${times.join(', ')}; database ${mb(before)} -> ${mb(t.databaseBytes())}`,
    );
  } finally {
    await t.close();
  }
}

await deadReceiver();
await manyWebhooks();
