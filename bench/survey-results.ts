// Survey results at volume: seeds 1,000,000 responses to an NPS + single choice + open text survey over
// 30 days (and 100,000 displays a day) with INSERT ... SELECT in the database itself, starts a server
// process on it and prints, on SQLite and PostgreSQL: the summary, trends, first page of the list and a
// filtered summary (an attribute and a week), each the median of 3 calls after one uncounted call; the
// CSV export's throughput; the server's resident memory (now and its peak).
// BENCH_RESPONSES and BENCH_DISPLAYS_PER_DAY change the size; BENCH_DIALECTS (sqlite,postgres) which
// databases; PostgreSQL is TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres).
// BENCH_REUSE=1 keeps the seeded data sets (SQLite in /tmp/ensign-bench-results, PostgreSQL in the
// database ensign_bench_results) and measures them again on the next run instead of seeding anew.
import { spawnListening } from './support/listening.js';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { ChangeFeed } from '../server/changes.js';
import { buildApp } from '../server/app.js';
import { defaultConfig } from '../server/config/index.js';
import { type Database, openDatabase } from '../server/db/index.js';
import { DEMO_SEED } from '../server/surveys/demo.js';
import { parseSurveyInput } from '../server/surveys/documents.js';
import { applySeed } from '../server/surveys/seed.js';
import { SurveyStore } from '../server/surveys/store/index.js';
import { createPostgresDatabase } from '../test/support/postgres.js';
import { atLeast, atMost, verdict } from './support/verdicts.js';

const RESPONSES = Number(process.env.BENCH_RESPONSES ?? 1_000_000);
const DISPLAYS_PER_DAY = Number(process.env.BENCH_DISPLAYS_PER_DAY ?? 100_000);
const DAYS = 30;
const DIALECTS = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',');
const POSTGRES = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ENVIRONMENT = 'clensigndemoenvironment0';
const START = Date.parse('2026-01-01T00:00:00Z');
const REUSE = process.env.BENCH_REUSE === '1';
const KEPT_SQLITE = '/tmp/ensign-bench-results/ensign.db';
const KEPT_POSTGRES = 'ensign_bench_results';

if (process.env.BENCH_SERVE_DB) {
  // The server process: the bench's own bundle, run again.
  const config = defaultConfig();
  config.db.url = process.env.BENCH_SERVE_DB;
  config.ui.enabled = false;
  const app = await buildApp(config);
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  console.log(`listening on ${address}`);
} else {
  for (const dialect of DIALECTS) await benchDialect(dialect);
}

async function benchDialect(dialect: string) {
  let url: string;
  let drop: () => Promise<void>;
  if (REUSE) {
    url = dialect === 'postgres' ? await keptPostgres() : `file:${KEPT_SQLITE}`;
    drop = async () => undefined;
  } else if (dialect === 'postgres') {
    ({ url, drop } = await createPostgresDatabase(POSTGRES, 'ensign_bench'));
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'ensign-bench-results-'));
    url = `file:${join(dir, 'ensign.db')}`;
    drop = async () => rmSync(dir, { recursive: true, force: true });
  }
  try {
    const database = await openDatabase(url);
    let surveyId: string;
    try {
      const kept = REUSE ? await benchSurvey(database) : undefined;
      if (kept) {
        console.log(`${dialect}: measuring the kept data set`);
        surveyId = kept;
      } else {
        const started = performance.now();
        surveyId = await seed(database);
        console.log(
          `${dialect}: seeded ${RESPONSES.toLocaleString('en')} responses and ${(DISPLAYS_PER_DAY * DAYS).toLocaleString('en')} displays in ${((performance.now() - started) / 1000).toFixed(1)} s`,
        );
      }
    } finally {
      await database.close();
    }
    if (process.env.BENCH_SEED_ONLY !== '1') await measure(dialect, url, surveyId);
  } finally {
    if (process.env.BENCH_KEEP) console.log(`kept ${url}`);
    else await drop();
  }
}

/** The kept PostgreSQL database's URL, created (empty) when missing. */
async function keptPostgres(): Promise<string> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: POSTGRES });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [KEPT_POSTGRES]);
    if (found.rowCount === 0) await client.query(`create database ${KEPT_POSTGRES}`);
  } finally {
    await client.end();
  }
  const url = new URL(POSTGRES);
  url.pathname = `/${KEPT_POSTGRES}`;
  return url.toString();
}

/** The id of the bench survey when the database holds it already (seeded by an earlier run). */
async function benchSurvey(database: Database): Promise<string | undefined> {
  const row = await database.db
    .selectFrom('surveys')
    .select('id')
    .where('name', '=', 'Bench survey')
    .executeTakeFirst();
  return row?.id;
}

async function seed(database: Database): Promise<string> {
  const store = new SurveyStore(database, new ChangeFeed());
  await applySeed(store, DEMO_SEED, 'demo environment');
  const { name, document } = parseSurveyInput({
    name: 'Bench survey',
    triggers: ['Bench action'],
    questions: [
      {
        id: 'nps',
        type: 'nps',
        headline: 'How likely are you to recommend us?',
        required: true,
        lowerLabel: 'Not likely',
        upperLabel: 'Very likely',
      },
      {
        id: 'plan',
        type: 'multipleChoiceSingle',
        headline: 'Which plan are you on?',
        required: false,
        choices: [
          { id: 'free', label: 'Free' },
          { id: 'team', label: 'Team' },
          { id: 'business', label: 'Business' },
          { id: 'enterprise', label: 'Enterprise' },
        ],
      },
      { id: 'why', type: 'openText', headline: 'What could we do better?', required: false },
    ],
  });
  const survey = await store.saveSurvey(ENVIRONMENT, name, document);
  const postgres = database.dialect === 'postgres';
  const step = Math.floor((DAYS * 86_400_000) / RESPONSES);
  // Row i: NPS i*7 mod 11, a plan by i mod 4, a text on every third, finished but every fourth, plan
  // attribute "pro" on every fifth; created evenly over the 30 days.
  const at = (ms: string) =>
    postgres
      ? `to_char(to_timestamp((${START} + ${ms}) / 1000.0) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
      : `strftime('%Y-%m-%dT%H:%M:%fZ', (${START} + ${ms}) / 1000.0, 'unixepoch')`;
  const cat = (...parts: string[]) => parts.join(' || ');
  const responses = `
    insert into survey_responses (id, environment_id, survey_id, person_id, finished, data, ttc, meta, person_attributes, created_at, updated_at)
    select 'r' || i, '${ENVIRONMENT}', '${survey.id}', null, ${postgres ? 'i % 4 <> 0' : '(i % 4 <> 0)'},
      ${cat(`'{"nps":'`, `((i * 7) % 11)`, `',"plan":"'`, `(case i % 4 when 0 then 'Free' when 1 then 'Team' when 2 then 'Business' else 'Enterprise' end)`, `'"'`, `(case when i % 3 = 0 then ',"why":"Faster exports please, answer ' || i || '"' else '' end)`, `'}'`)},
      case when i % 4 <> 0 then '{"nps":1200,"plan":800,"why":3000,"_total":5000}' else '{"nps":1500}' end,
      '{"source":"bench","url":"https://example.com/pricing","userAgent":{"browser":"Chrome","os":"Linux","device":"desktop"}}',
      case when i % 5 = 0 then '{"plan":"pro"}' else '{"plan":"free"}' end,
      ${at(`${postgres ? 'i::bigint' : 'i'} * ${step}`)}, ${at(`${postgres ? 'i::bigint' : 'i'} * ${step}`)}
    from ${postgres ? `generate_series(1, ${RESPONSES}) as s(i)` : `(with recursive s(i) as (select 1 union all select i + 1 from s where i < ${RESPONSES}) select i from s)`}`;
  const displayCount = DISPLAYS_PER_DAY * DAYS;
  const displayStep = Math.floor((DAYS * 86_400_000) / displayCount);
  const displays = `
    insert into survey_displays (id, environment_id, survey_id, person_id, response_id, created_at, updated_at)
    select 'd' || i, '${ENVIRONMENT}', '${survey.id}', null, null, ${at(`${postgres ? 'i::bigint' : 'i'} * ${displayStep}`)}, ${at(`${postgres ? 'i::bigint' : 'i'} * ${displayStep}`)}
    from ${postgres ? `generate_series(1, ${displayCount}) as s(i)` : `(with recursive s(i) as (select 1 union all select i + 1 from s where i < ${displayCount}) select i from s)`}`;
  await database.transaction(async (trx) => {
    await sql.raw(responses).execute(trx);
    await sql.raw(displays).execute(trx);
  });
  if (postgres) await sql`analyze`.execute(database.db);
  else await sql`pragma optimize`.execute(database.db);
  return survey.id;
}

async function measure(dialect: string, url: string, surveyId: string) {
  const { base, child } = await spawnListening([process.argv[1]], { ...process.env, BENCH_SERVE_DB: url });
  const memory = (field: 'VmRSS' | 'VmHWM') =>
    Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) /
    1024;
  try {
    const results = `${base}/api/v1/namespaces/default/surveys/environments/${ENVIRONMENT}/surveys/${surveyId}/results`;
    const filtered = `filter=${encodeURIComponent(
      JSON.stringify({
        personAttributes: { plan: { op: 'equals', value: 'pro' } },
        createdAt: { min: '2026-01-10T00:00:00.000Z', max: '2026-01-16T23:59:59.999Z' },
      }),
    )}`;
    const timed = async (path: string) => {
      const started = performance.now();
      const response = await fetch(`${results}${path}`);
      if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
      await response.arrayBuffer();
      return performance.now() - started;
    };
    const median = async (path: string) => {
      await timed(path);
      const times = [await timed(path), await timed(path), await timed(path)].sort((a, b) => a - b);
      return times[1];
    };
    const rows: [string, number, number][] = [
      ['summary', await median('/summary'), 1000],
      ['trends (30 days)', await median('/trends'), 1000],
      ['first page (25)', await median('/responses'), 300],
      ['filtered summary (attribute + week)', await median(`/summary?${filtered}`), 1000],
    ];
    for (const [name, ms, budget] of rows)
      atMost(`${dialect}: ${name}`, ms, budget, `${ms.toFixed(0)} ms`, `at most ${budget} ms`);
    let peakDuringExport = 0;
    const sampler = setInterval(() => {
      peakDuringExport = Math.max(peakDuringExport, memory('VmRSS'));
    }, 100);
    // The server's CPU time (user + system, in clock ticks of 10 ms): on a machine shared with other
    // work, MB per CPU second says what the export costs apart from the waiting.
    const cpuSeconds = () => {
      const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return (Number(fields[11]) + Number(fields[12])) / 100;
    };
    // Two of the 30 days (a fifteenth of the responses), so that a loaded machine finishes the run; as
    // the figures above, the median of three exports after an uncounted one.
    const twoDays = encodeURIComponent(
      JSON.stringify({ createdAt: { min: '2026-01-01T00:00:00.000Z', max: '2026-01-02T23:59:59.999Z' } }),
    );
    const exportOnce = async () => {
      const cpuBefore = cpuSeconds();
      const started = performance.now();
      const response = await fetch(`${results}/export.csv?filter=${twoDays}`);
      let bytes = 0;
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
      const seconds = (performance.now() - started) / 1000;
      return { bytes, seconds, cpu: cpuSeconds() - cpuBefore };
    };
    await exportOnce();
    const exports = [await exportOnce(), await exportOnce(), await exportOnce()].sort((a, b) => a.seconds - b.seconds);
    clearInterval(sampler);
    const { bytes, seconds, cpu } = exports[1];
    const rate = bytes / 1e6 / seconds;
    atLeast(
      `${dialect}: CSV export (2 days)`,
      rate,
      20,
      `${rate.toFixed(1)} MB/s (${(bytes / 1e6).toFixed(1)} MB in ${seconds.toFixed(2)} s; server CPU ${cpu.toFixed(2)} s = ${(bytes / 1e6 / Math.max(cpu, 0.01)).toFixed(1)} MB per CPU second)`,
      'at least 20 MB/s',
    );
    const peak = memory('VmHWM');
    verdict({
      budget: `${dialect}: server RSS at its peak`,
      figure: Math.round(peak),
      measured: `${peak.toFixed(0)} MB (${memory('VmRSS').toFixed(0)} MB now, ${peakDuringExport.toFixed(0)} MB at most during the export)`,
      limit: 'under 300 MB',
      met: peak < 300,
    });
  } finally {
    child.kill();
  }
}
