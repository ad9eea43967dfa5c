import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@libsql/client';
import { expect, startServer, test } from './fixtures.js';

/** Writers POSTing at once; each keeps going until the server dies under it. */
const WRITERS = 4;
/** Acknowledged writes to wait for before the kill, so the kill lands mid-stream. */
const WRITES_BEFORE_KILL = 200;

test('every write answered 200 survives a SIGKILL, and the database opens cleanly', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ensign-crash-'));
  const db = `file:${join(dir, 'ensign.db')}`;
  try {
    const server = await startServer(['--db', db]);
    const created = await fetch(`${server.url}/api/v1/namespaces`, {
      method: 'POST',
      body: JSON.stringify({ key: 'crash', name: 'Crash' }),
    });
    expect(created.status).toBe(200);

    const acknowledgedFlags: string[] = [];
    const acknowledgedVariants: string[] = [];
    let killed = false;
    let reachedTarget: () => void;
    const target = new Promise<void>((resolve) => (reachedTarget = resolve));
    const acknowledge = (list: string[], key: string) => {
      list.push(key);
      if (acknowledgedFlags.length + acknowledgedVariants.length >= WRITES_BEFORE_KILL) reachedTarget();
    };

    const writer = async (id: number) => {
      for (let n = 0; ; n++) {
        const key = `w${id}-${n}`;
        try {
          const flag = await fetch(`${server.url}/api/v1/namespaces/crash/flags`, {
            method: 'POST',
            body: JSON.stringify({ key, name: key, enabled: n % 2 === 0, metadata: { writer: id, n } }),
          });
          if (flag.status !== 200) throw new Error(`flag ${key}: ${flag.status} ${await flag.text()}`);
          acknowledge(acknowledgedFlags, key);
          const variant = await fetch(`${server.url}/api/v1/namespaces/crash/flags/${key}/variants`, {
            method: 'POST',
            body: JSON.stringify({ key: 'on', attachment: JSON.stringify({ n }) }),
          });
          if (variant.status !== 200) throw new Error(`variant of ${key}: ${variant.status} ${await variant.text()}`);
          acknowledge(acknowledgedVariants, key);
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

    const integrity = createClient({ url: db });
    const check = await integrity.execute('PRAGMA integrity_check');
    integrity.close();
    expect(check.rows.map((row) => row[0])).toEqual(['ok']);

    const restarted = await startServer(['--db', db]);
    try {
      const list = await (await fetch(`${restarted.url}/api/v1/namespaces/crash/flags`)).json();
      const flags = new Map<string, { variants: { key: string }[] }>(
        list.flags.map((flag: { key: string }) => [flag.key, flag]),
      );
      expect(acknowledgedFlags.length).toBeGreaterThan(0);
      expect(acknowledgedFlags.filter((key) => !flags.has(key))).toEqual([]);
      expect(acknowledgedVariants.filter((key) => flags.get(key)?.variants.length !== 1)).toEqual([]);
      // The server keeps taking writes after the restart.
      const after = await fetch(`${restarted.url}/api/v1/namespaces/crash/flags`, {
        method: 'POST',
        body: JSON.stringify({ key: 'after', name: 'After' }),
      });
      expect(after.status).toBe(200);
    } finally {
      await restarted.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
