// The write overhead of the change history: flag updates per second through the store with history
// (FliptStore.updateFlag: the flag's state read before the update, one history row) and without (the
// same update query in its own transaction), on SQLite and, when DATABASE_URL or TEST_DATABASE_URL
// names a PostgreSQL server, PostgreSQL. The flag has three variants, two rules with distributions
// and a rollout, so its state is not trivially small. Then the first page of a namespace's history
// with HISTORY_ROWS entries (default 1,000,000 on SQLite). Budget: at most 15% slower with history.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { ChangeFeed } from '../server/changes.js';
import { type Database, openDatabase } from '../server/db/index.js';
import { FliptStore } from '../server/flipt/store/index.js';
import * as flags from '../server/flipt/store/flags.js';
import { createPostgresDatabase } from '../test/support/postgres.js';
import { atMost } from './support/verdicts.js';

const UPDATES = Number(process.env.HISTORY_UPDATES ?? 2000);
const HISTORY_ROWS = Number(process.env.HISTORY_ROWS ?? 1_000_000);
const POSTGRES_URL = process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL;
/** History rows per insert while filling: 11 columns each, within SQLite's 32,766 variables a statement. */
const FILL_BATCH = 2500;

async function seed(store: FliptStore): Promise<void> {
  await store.createNamespace({ key: 'b', name: 'B', description: '' });
  await store.createSegment({ namespaceKey: 'b', key: 's', name: 'S', description: '', matchType: 'ALL_MATCH_TYPE' });
  await store.createFlag({
    namespaceKey: 'b',
    key: 'f',
    name: 'F',
    description: '',
    enabled: true,
    type: 'VARIANT_FLAG_TYPE',
  });
  const variants = [];
  for (const key of ['a', 'b', 'c'])
    variants.push(
      await store.createVariant({ namespaceKey: 'b', flagKey: 'f', key, name: key, description: '', attachment: '' }),
    );
  for (const rank of [1, 2]) {
    const rule = await store.createRule({
      namespaceKey: 'b',
      flagKey: 'f',
      segments: ['s'],
      segmentOperator: 'OR_SEGMENT_OPERATOR',
      rank,
    } as Parameters<FliptStore['createRule']>[0]);
    await store.createDistribution({
      namespaceKey: 'b',
      flagKey: 'f',
      ruleId: rule.id,
      variantId: variants[rank].id,
      rollout: 50,
    });
  }
}

const update = (i: number) => ({
  namespaceKey: 'b',
  key: 'f',
  name: `F ${i}`,
  description: '',
  enabled: i % 2 === 0,
  defaultVariantId: '',
});

/**
 * Flag updates per second through `plain` and through `recorded`, each on its own database (so each
 * pays its own commits and WAL checkpoints), alternating one update of each: load from other
 * processes on this shared machine then slows both alike instead of whichever ran in a busy moment.
 */
interface Figures {
  perSecond: number;
  /** This process's CPU time per update (µs): unlike the wall time, other processes' load does not blur it. */
  cpuMicros: number;
}

async function updatesPerSecond(
  plain: (i: number) => Promise<unknown>,
  recorded: (i: number) => Promise<unknown>,
): Promise<{ without: Figures; withHistory: Figures }> {
  for (let i = 0; i < 200; i++) {
    await plain(i);
    await recorded(i);
  }
  const totals = { plain: { ms: 0, cpu: 0 }, recorded: { ms: 0, cpu: 0 } };
  const timed = async (run: () => Promise<unknown>, total: { ms: number; cpu: number }) => {
    const [started, cpu] = [performance.now(), process.cpuUsage()];
    await run();
    const used = process.cpuUsage(cpu);
    total.ms += performance.now() - started;
    total.cpu += used.user + used.system;
  };
  for (let i = 0; i < UPDATES; i++) {
    await timed(() => plain(i), totals.plain);
    await timed(() => recorded(i), totals.recorded);
  }
  const figures = ({ ms, cpu }: { ms: number; cpu: number }) => ({
    perSecond: UPDATES / (ms / 1000),
    cpuMicros: cpu / UPDATES,
  });
  return { without: figures(totals.plain), withHistory: figures(totals.recorded) };
}

async function measure(label: string, open: () => Promise<Database>): Promise<Database> {
  const [plainDatabase, database] = [await open(), await open()];
  const changes = new ChangeFeed();
  const store = new FliptStore(database, changes, { readOnly: false });
  await seed(store);
  await seed(new FliptStore(plainDatabase, changes, { readOnly: false }));
  const { without, withHistory } = await updatesPerSecond(
    async (i) => {
      await plainDatabase.transaction((trx) =>
        flags.updateFlag(
          { db: trx, dialect: plainDatabase.dialect },
          update(i) as Parameters<typeof flags.updateFlag>[1],
        ),
      );
      changes.publish('b');
    },
    (i) => store.updateFlag(update(i) as Parameters<FliptStore['updateFlag']>[0]),
  );
  await plainDatabase.close();
  const slower = (1 - withHistory.perSecond / without.perSecond) * 100;
  atMost(
    `${label}: flag updates with history, slower than without`,
    slower,
    15,
    `${slower.toFixed(1)}% slower (${withHistory.perSecond.toFixed(0)} vs ${without.perSecond.toFixed(0)} updates/s; CPU per update ${withHistory.cpuMicros.toFixed(0)} vs ${without.cpuMicros.toFixed(0)} µs; load average ${loadavg()[0].toFixed(1)})`,
    'at most 15%',
  );
  return database;
}

async function historyPages(database: Database): Promise<void> {
  const store = new FliptStore(database, new ChangeFeed(), { readOnly: false });
  const have = Number((await sql<{ n: number }>`select count(*) as n from history`.execute(database.db)).rows[0].n);
  const metadata = JSON.stringify({ authentication: 'none' });
  const after = JSON.stringify({ flag: { key: 'f' }, rules: [], rollouts: [] });
  for (let start = have; start < HISTORY_ROWS; start += FILL_BATCH) {
    const rows = Array.from({ length: Math.min(FILL_BATCH, HISTORY_ROWS - start) }, (_, i) => ({
      namespace_key: (start + i) % 10 === 0 ? 'b' : 'other',
      entity_type: 'flag',
      entity_key: `f${(start + i) % 1000}`,
      noun: 'flag',
      action: 'updated',
      actor: `user${(start + i) % 7}@example.com`,
      actor_metadata: metadata,
      before: after,
      after,
      payload: '{}',
      created_at: new Date(Date.UTC(2026, 0, 1) + (start + i) * 1000).toISOString().replace('Z', '000Z'),
    }));
    await database.transaction((trx) => trx.insertInto('history').values(rows).execute());
  }
  const time = async (label: string, query: Parameters<FliptStore['listHistory']>[1]) => {
    await store.listHistory('b', query);
    const started = performance.now();
    let page = await store.listHistory('b', query);
    for (let i = 0; i < 4 && page.nextPageToken; i++)
      page = await store.listHistory('b', { ...query, pageToken: page.nextPageToken });
    console.log(
      `  ${HISTORY_ROWS} entries: ${label}: ${((performance.now() - started) / 5).toFixed(1)} ms a page (5 pages of ${query.limit})`,
    );
  };
  await time('newest first', { limit: 25 });
  await time('one flag', { limit: 25, entityType: 'flag', entityKey: 'f10' });
  await time('one actor', { limit: 25, actor: 'user3@example.com' });
  await time('since a date', { limit: 25, since: '2026-01-05T00:00:00.000000Z' });
}

const dir = mkdtempSync(join(tmpdir(), 'ensign-bench-history-'));
try {
  let files = 0;
  const sqlite = await measure('SQLite', () => openDatabase(`file:${join(dir, `history-${files++}.db`)}`));
  await historyPages(sqlite);
  await sqlite.close();
  if (POSTGRES_URL) {
    const created: Awaited<ReturnType<typeof createPostgresDatabase>>[] = [];
    try {
      const postgres = await measure('PostgreSQL', async () => {
        created.push(await createPostgresDatabase(POSTGRES_URL, 'ensign_bench'));
        return openDatabase(created[created.length - 1].url);
      });
      await postgres.close();
    } finally {
      for (const database of created) await database.drop();
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
