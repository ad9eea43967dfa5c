import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FlagState, HistoryEntry, HistoryPage } from '../../domain/flipt/history.js';
import type { Flag, RuleList } from '../../domain/flipt/types.js';
import { createPostgresDatabase } from '../support/postgres.js';
import { expect, startServer, test, type RunningServer } from './fixtures.js';

/** Writers sending changes at once; each keeps going until the server dies under it. */
const WRITERS = 4;
/** Acknowledged writes to wait for before the kill, so that it lands mid-burst. */
const WRITES_BEFORE_KILL = 150;
const NAMESPACE = 'crash';

async function call<T>(server: Pick<RunningServer, 'url'>, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${server.url}/api/v1/namespaces/${NAMESPACE}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

/** One flag's life, five writes: created, a variant, renamed and switched off, a rule, the rule's distribution. */
async function flagLife(server: RunningServer, key: string, acknowledge: () => void): Promise<void> {
  await call(server, 'POST', '/flags', { key, name: key, type: 'VARIANT_FLAG_TYPE', enabled: true });
  acknowledge();
  const variant = await call<{ id: string }>(server, 'POST', `/flags/${key}/variants`, { key: 'on' });
  acknowledge();
  await call(server, 'PUT', `/flags/${key}`, { key, name: `${key} renamed`, enabled: false });
  acknowledge();
  const rule = await call<{ id: string }>(server, 'POST', `/flags/${key}/rules`, { segmentKey: 'all', rank: 1 });
  acknowledge();
  await call(server, 'POST', `/flags/${key}/rules/${rule.id}/distributions`, { variantId: variant.id, rollout: 100 });
  acknowledge();
}

async function everyEntry(server: RunningServer): Promise<HistoryEntry[]> {
  const entries: HistoryEntry[] = [];
  for (let token = ''; ; ) {
    const page = await call<HistoryPage>(server, 'GET', `/history?limit=100&entityType=flag&pageToken=${token}`);
    entries.push(...page.entries);
    token = page.nextPageToken;
    if (!token) return entries.reverse();
  }
}

/**
 * Starts a server on `db`, kills it with SIGKILL during a burst of flag writes, restarts it and checks,
 * for every flag, that its entries chain (each one's state before is the previous one's after, the
 * first starts from nothing) and that the last one's after is the flag as stored: no change is stored
 * without its entry, and no entry stands for a change that was not stored.
 */
async function crashAndCheck(db: string): Promise<void> {
  const server = await startServer(['--db', db]);
  await fetch(`${server.url}/api/v1/namespaces`, {
    method: 'POST',
    body: JSON.stringify({ key: NAMESPACE, name: NAMESPACE }),
  });
  await call(server, 'POST', '/segments', { key: 'all', name: 'All', matchType: 'ALL_MATCH_TYPE' });

  let acknowledged = 0;
  let killed = false;
  let reachedTarget: () => void;
  const target = new Promise<void>((resolve) => (reachedTarget = resolve));
  const acknowledge = () => {
    acknowledged++;
    if (acknowledged >= WRITES_BEFORE_KILL) reachedTarget();
  };
  const writer = async (id: number) => {
    for (let n = 0; ; n++) {
      try {
        await flagLife(server, `w${id}-${n}`, acknowledge);
      } catch (error) {
        // Only the kill may end a writer: its connection fails; anything else before it is a failure.
        if (!killed) throw error;
        return;
      }
    }
  };
  const writers = Array.from({ length: WRITERS }, (_, id) => writer(id));
  await target;
  killed = true;
  await server.stop('SIGKILL');
  await Promise.all(writers);
  expect(server.process.signalCode).toBe('SIGKILL');

  const restarted = await startServer(['--db', db]);
  try {
    const entries = await everyEntry(restarted);
    // Every acknowledged write has its entry; at most one write per writer was cut short.
    expect(entries.length).toBeGreaterThanOrEqual(acknowledged);
    expect(entries.length).toBeLessThanOrEqual(acknowledged + WRITERS);
    const byFlag = new Map<string, HistoryEntry[]>();
    for (const entry of entries) byFlag.set(entry.entityKey, [...(byFlag.get(entry.entityKey) ?? []), entry]);
    const keys = (await call<{ flags: Flag[] }>(restarted, 'GET', '/flags?limit=1000')).flags.map((flag) => flag.key);
    expect([...byFlag.keys()].sort()).toEqual(keys.sort());
    for (const key of keys) {
      const flag = await call<Flag>(restarted, 'GET', `/flags/${key}`);
      const chain = byFlag.get(key) ?? [];
      expect(chain[0].before, `${flag.key} starts from nothing`).toBeNull();
      for (let i = 1; i < chain.length; i++)
        expect(chain[i].before, `${flag.key}: entry ${chain[i].id} follows ${chain[i - 1].id}`).toEqual(
          chain[i - 1].after,
        );
      const last = chain[chain.length - 1].after as FlagState;
      const rules = await call<RuleList>(restarted, 'GET', `/flags/${flag.key}/rules`);
      expect(last.flag, `${flag.key} as stored`).toEqual(flag);
      expect(last.rules, `${flag.key}'s rules as stored`).toEqual(rules.rules);
    }
  } finally {
    await restarted.stop();
  }
}

test('SQLite: SIGKILL during a burst of writes; every stored change has exactly one history entry and every entry a stored change', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ensign-history-crash-'));
  try {
    await crashAndCheck(`file:${join(dir, 'ensign.db')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('PostgreSQL: the same after a SIGKILL of the server', async () => {
  test.skip(!process.env.TEST_DATABASE_URL, 'TEST_DATABASE_URL names no PostgreSQL server');
  const database = await createPostgresDatabase(process.env.TEST_DATABASE_URL!, 'ensign_crash');
  try {
    await crashAndCheck(database.url);
  } finally {
    await database.drop();
  }
});
