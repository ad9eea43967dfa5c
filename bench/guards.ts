// Feedback guards at volume: a 50/50 flag with a linked NPS survey holding 1,000,000 responses (seeded with
// INSERT ... SELECT, half on each variant), served by a child process. Prints the time to create a guard (its
// one scan of the stored responses), and the response route's throughput (16 connections, autocannon) with
// the guard and without it, in alternating rounds; the budget is at most 5% less with the guard.
// BENCH_RESPONSES changes the size, BENCH_SECONDS and BENCH_ROUNDS the load.
import { spawnListening } from './support/listening.js';
import { cpuSecondsOf } from './support/servers.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { buildApp } from '../server/app.js';
import { defaultConfig } from '../server/config/index.js';
import { openDatabase } from '../server/db/index.js';
import { emptyTotals, loadLine, medianRatio, report, round } from './support/load.js';
import { atLeast } from './support/verdicts.js';

const RESPONSES = Number(process.env.BENCH_RESPONSES ?? 1_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const ENVIRONMENT = 'clensigndemoenvironment0';
const GUARDS = '/api/v1/namespaces/default/flags/checkout/guards';

const configFor = (url: string) => {
  const config = defaultConfig();
  config.db.url = url;
  config.ui.enabled = false;
  config.server.grpcPort = 0;
  // The client API's write limit is per address, and the load comes from one.
  config.rateLimits.surveyWrites = 0;
  return config;
};

if (process.env.BENCH_GUARDS_DB) {
  const app = await buildApp(configFor(process.env.BENCH_GUARDS_DB));
  console.log(`listening on ${await app.listen({ host: '127.0.0.1', port: 0 })}`);
} else {
  const dir = mkdtempSync(join(tmpdir(), 'ensign-bench-guards-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  const url = `file:${join(dir, 'ensign.db')}`;
  console.log(loadLine());
  const surveyId = await seed(url);
  await measure(url, surveyId);
}

async function seed(url: string): Promise<string> {
  const app = await buildApp(configFor(url));
  const call = async (method: 'POST' | 'PUT', path: string, body: unknown, headers = {}) => {
    const response = await app.inject({ method, url: path, payload: JSON.stringify(body), headers });
    if (response.statusCode !== 200) throw new Error(`${path}: ${response.body}`);
    return response.json();
  };
  const flags = '/api/v1/namespaces/default/flags';
  await call('POST', flags, { key: 'checkout', name: 'Checkout', type: 'VARIANT_FLAG_TYPE', enabled: true });
  const a = await call('POST', `${flags}/checkout/variants`, { key: 'a' });
  const b = await call('POST', `${flags}/checkout/variants`, { key: 'b' });
  await call('POST', '/api/v1/namespaces/default/segments', {
    key: 'everyone',
    name: 'Everyone',
    matchType: 'ALL_MATCH_TYPE',
  });
  const rule = await call('POST', `${flags}/checkout/rules`, { segmentKey: 'everyone', rank: 1 });
  for (const variant of [a, b])
    await call('POST', `${flags}/checkout/rules/${rule.id}/distributions`, { variantId: variant.id, rollout: 50 });
  const survey = await call(
    'POST',
    '/api/v1/management/surveys',
    {
      name: 'Guarded',
      status: 'inProgress',
      triggers: ['Checkout'],
      questions: [{ id: 'nps', type: 'nps', headline: 'How likely?', required: true }],
      linkedFlag: { flagKey: 'checkout', variants: ['a', 'b'] },
    },
    { 'x-api-key': 'ensign-demo-api-key-0000', 'content-type': 'application/json' },
  );
  await app.close();
  const surveyId = survey.data.id as string;
  const database = await openDatabase(url);
  const started = performance.now();
  const at = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;
  await sql
    .raw(`insert into survey_responses (id, environment_id, survey_id, person_id, finished, data, ttc, meta, person_attributes, flag_key, flag_variant, flag_reason, created_at, updated_at)
      select 'r' || i, '${ENVIRONMENT}', '${surveyId}', null, 1, '{"nps":' || ((i * 7) % 11) || '}', '{}', '{}', null,
        'checkout', case i % 2 when 0 then 'a' else 'b' end, 'MATCH_EVALUATION_REASON', ${at}, ${at}
      from (with recursive s(i) as (select 1 union all select i + 1 from s where i < ${RESPONSES}) select i from s)`)
    .execute(database.db);
  await database.close();
  console.log(
    `seeded ${RESPONSES.toLocaleString('en')} responses in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return surveyId;
}

async function measure(url: string, surveyId: string) {
  const { base, child } = await spawnListening([process.argv[1]], { ...process.env, BENCH_GUARDS_DB: url });
  const server = { url: base, cpuSeconds: () => cpuSecondsOf(child.pid!) };
  try {
    const request = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(base + path, {
        method,
        headers: body ? { 'content-type': 'application/json' } : {},
        body: body ? JSON.stringify(body) : undefined,
      });
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
      return response.json();
    };
    const guarded = emptyTotals();
    const unguarded = emptyTotals();
    const creations: number[] = [];
    const load = {
      url: `/api/v1/client/${ENVIRONMENT}/responses`,
      method: 'POST' as const,
      connections: 16,
      duration: SECONDS,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ surveyId, userId: 'bench-visitor', finished: true, data: { nps: 4 } }),
    };
    await round('warm-up', server, { ...load, duration: 2 }, emptyTotals());
    for (let i = 0; i < ROUNDS; i++) {
      await round('without a guard', server, load, unguarded);
      const started = performance.now();
      const guard = await request('POST', GUARDS, {
        surveyId,
        environmentId: ENVIRONMENT,
        questionId: 'nps',
        baseline: 'a',
        minimumRegression: 10,
        action: 'ALERT',
      });
      creations.push(performance.now() - started);
      await round('with a guard', server, load, guarded);
      await request('DELETE', `${GUARDS}/${guard.id}`);
    }
    console.log(
      `creating a guard over ${RESPONSES.toLocaleString('en')} responses: ${creations.map((ms) => ms.toFixed(0)).join('/')} ms`,
    );
    report('responses without a guard', unguarded);
    report('responses with a guard', guarded);
    const ratio = medianRatio(guarded, unguarded, 'rates');
    // The server's CPU per response moves less than its throughput when the machine is loaded from elsewhere.
    console.log(
      `CPU per response with a guard, against without: ${(medianRatio(guarded, unguarded, 'cpus') * 100).toFixed(1)}%`,
    );
    atLeast(
      'response route with a guard, against without',
      ratio,
      0.95,
      `${(ratio * 100).toFixed(1)}%`,
      'at least 95%',
    );
    console.log(loadLine());
  } finally {
    child.kill();
  }
}
