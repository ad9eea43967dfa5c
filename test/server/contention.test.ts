// No acknowledged write is lost: writers of every kind run at once (flags, segments, survey displays and
// responses) while an import of a large features file runs through another connection, as
// `ensign import` does from its own process, and (on SQLite) another connection takes the write lock
// again and again, as a back-up or a second process would. Every write answered 200 must be in the
// database afterwards, read through a connection of its own; and since every lock is short, every
// write must be answered 200.
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '@libsql/client';
import { openDatabase } from '../../server/db/index.js';
import { ChangeFeed } from '../../server/changes.js';
import { FliptStore } from '../../server/flipt/store/index.js';
import { parseFeatures } from '../../server/flipt/declarative/format.js';
import { importFeatures } from '../../server/flipt/declarative/import.js';
import { generateFeatures } from '../../bench/support/features.js';
import { dialects } from './support.js';
import { CLIENT, ENV, startSurveyApp, type SurveyTestApp } from './surveys/support.js';

const WRITERS = 8;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Takes SQLite's write lock through a connection of its own for 100 ms of every 200 while `going()`; counts the locks. */
async function holdTheLockNowAndThen(url: string, going: () => boolean): Promise<number> {
  const other = createClient({ url });
  let locks = 0;
  try {
    while (going()) {
      const lock = await other.transaction('write');
      await lock.execute("update namespaces set description = description where key = 'default'");
      await pause(100);
      await lock.commit();
      locks++;
      await pause(100);
    }
  } finally {
    other.close();
  }
  return locks;
}
const WRITES_PER_WRITER = 40;
const SURVEY = 'clensigndemosurveyexitin';

describe.each(dialects)('concurrent writers and an import on %s', (dialect) => {
  let t: SurveyTestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('keeps every acknowledged write', async () => {
    t = await startSurveyApp(dialect);
    const app = t;
    const importer = await openDatabase(app.config.db.url);
    const importing = importFeatures(
      new FliptStore(importer, new ChangeFeed(), { readOnly: false }),
      parseFeatures(generateFeatures(5000).replace('namespace: default', 'namespace: imported'), 'generated'),
    ).finally(() => importer.close());

    let writing = true;
    const locker = dialect === 'sqlite' ? holdTheLockNowAndThen(app.config.db.url, () => writing) : Promise.resolve(0);
    const acknowledged = {
      flags: [] as string[],
      segments: [] as string[],
      responses: [] as string[],
      displays: [] as string[],
    };
    const statuses = new Map<number, number>();
    const note = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
    const writer = async (w: number) => {
      for (let i = 0; i < WRITES_PER_WRITER; i++) {
        const key = `w${w}_${i}`;
        switch (i % 4) {
          case 0: {
            const { status } = await app.request('POST', '/api/v1/namespaces/default/flags', {
              key,
              name: key,
              type: 'BOOLEAN_FLAG_TYPE',
            });
            note(status);
            if (status === 200) acknowledged.flags.push(key);
            break;
          }
          case 1: {
            const { status } = await app.request('POST', '/api/v1/namespaces/default/segments', {
              key,
              name: key,
              matchType: 'ALL_MATCH_TYPE',
            });
            note(status);
            if (status === 200) acknowledged.segments.push(key);
            break;
          }
          case 2: {
            const { status, body } = await app.request('POST', `${CLIENT}/responses`, {
              surveyId: SURVEY,
              finished: true,
              data: { q: key },
            });
            note(status);
            if (status === 200) acknowledged.responses.push(body.data.id);
            break;
          }
          default: {
            const { status, body } = await app.request('POST', `${CLIENT}/displays`, { surveyId: SURVEY });
            note(status);
            if (status === 200) acknowledged.displays.push(body.data.id);
          }
        }
      }
    };
    await Promise.all([importing, ...Array.from({ length: WRITERS }, (_, w) => writer(w))]);
    writing = false;
    const locks = await locker;

    // Read back through a connection of its own: what another process would see committed.
    const reader = await openDatabase(app.config.db.url, { migrate: false });
    const db = reader.db as unknown as import('kysely').Kysely<any>;
    const stored = async (table: string, column: string, where?: [string, string]) => {
      let query = db.selectFrom(table).select(column);
      if (where) query = query.where(where[0], '=', where[1]);
      return new Set((await query.execute()).map((row: Record<string, string>) => row[column]));
    };
    const flags = await stored('flags', 'key', ['namespace_key', 'default']);
    const segments = await stored('segments', 'key', ['namespace_key', 'default']);
    const responses = await stored('survey_responses', 'id', ['environment_id', ENV]);
    const displays = await stored('survey_displays', 'id', ['environment_id', ENV]);
    await reader.close();
    const attempted = WRITERS * WRITES_PER_WRITER;
    const acked = Object.values(acknowledged).reduce((n, ids) => n + ids.length, 0);
    console.log(
      `${dialect}: ${attempted} writes attempted, ${acked} acknowledged (the write lock taken ${locks} times by another connection meanwhile), statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
    expect(acknowledged.flags.filter((key) => !flags.has(key))).toEqual([]);
    expect(acknowledged.segments.filter((key) => !segments.has(key))).toEqual([]);
    expect(acknowledged.responses.filter((id) => !responses.has(id))).toEqual([]);
    expect(acknowledged.displays.filter((id) => !displays.has(id))).toEqual([]);
    // Writers wait for the import's lock rather than fail: everything is acknowledged (the statuses
    // say what was answered instead).
    expect(Object.fromEntries(statuses)).toEqual({ 200: attempted });
    expect(acked).toBe(attempted);
  }, 120_000);
});
