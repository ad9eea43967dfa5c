import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Libsql from 'libsql';
import { afterAll, describe, expect, it } from 'vitest';
import { KEPT_STATEMENTS, keepPreparedStatements } from '../../server/db/statement-cache.js';

describe('kept SQLite statements', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ensign-statements-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  keepPreparedStatements();
  const database = new Libsql(join(dir, 'kept.db'));
  database.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)');

  it('reuses a read by its SQL, with fresh bindings each run; prepares writes each time', () => {
    const insert = database.prepare('INSERT INTO t (name) VALUES (?)');
    expect(database.prepare('INSERT INTO t (name) VALUES (?)')).not.toBe(insert);
    expect(database.prepare('BEGIN')).not.toBe(database.prepare('BEGIN'));
    insert.run('a');
    database.prepare('INSERT INTO t (name) VALUES (?)').run('b');
    const select = database.prepare('SELECT name FROM t WHERE name = ?');
    expect(select.all('a')).toEqual([{ name: 'a' }]);
    expect(database.prepare('SELECT name FROM t WHERE name = ?').all('b')).toEqual([{ name: 'b' }]);
  });

  it('keeps at most KEPT_STATEMENTS per connection, dropping the least recently used', () => {
    const first = database.prepare('SELECT 0');
    for (let i = 1; i < KEPT_STATEMENTS; i++) database.prepare(`SELECT ${i}`);
    expect(database.prepare('SELECT 0')).toBe(first);
    database.prepare('SELECT -1');
    // "SELECT 0" was used last but one: "SELECT 1" is the one dropped.
    expect(database.prepare('SELECT 0')).toBe(first);
    const again = database.prepare('SELECT 1');
    expect(again.all()).toEqual([{ 1: 1 }]);
  });

  it('answers with the new schema after a change', () => {
    const all = database.prepare('SELECT * FROM t ORDER BY id');
    expect(Object.keys(all.all()[0] as object)).toEqual(['id', 'name']);
    database.exec("ALTER TABLE t ADD COLUMN plan TEXT DEFAULT 'free'");
    expect(database.prepare('SELECT * FROM t ORDER BY id').all()[0]).toEqual({ id: 1, name: 'a', plan: 'free' });
  });

  it('keeps statements per connection', () => {
    const other = new Libsql(join(dir, 'kept.db'));
    expect(other.prepare('SELECT name FROM t WHERE name = ?')).not.toBe(
      database.prepare('SELECT name FROM t WHERE name = ?'),
    );
    other.close();
  });
});
