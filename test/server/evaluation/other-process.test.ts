import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ChangeFeed } from '../../../server/changes.js';
import { openDatabase } from '../../../server/db/index.js';
import { importCommand } from '../../../server/flipt/declarative/commands.js';
import { FliptStore } from '../../../server/flipt/store/index.js';
import { startTestApp, type TestApp } from '../support.js';
import { Api } from './api.js';

/**
 * SQLite sends no notifications: a server on it follows the history to learn of what another process
 * committed to its file (`ensign import`, another store), and serves it within about a second.
 */
describe('a server on SQLite and another process writing its file', () => {
  let t: TestApp;
  let api: Api;
  let dir: string;

  beforeAll(async () => {
    t = await startTestApp('sqlite');
    api = new Api(t.app);
    dir = mkdtempSync(join(tmpdir(), 'ensign-other-process-'));
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const evaluatedWithin = async (flagKey: string, ms: number) => {
    const started = Date.now();
    for (;;) {
      const { status, body } = await api.call('POST', '/evaluate/v1/boolean', { flagKey, entityId: 'e' });
      if (status === 200) return body;
      if (Date.now() - started > ms) throw new Error(`${flagKey} not served within ${ms} ms: ${status}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };

  it('serves what ensign import committed within about a second', async () => {
    await api.ok('POST', '/evaluate/v1/boolean', { flagKey: 'missing', entityId: 'e' }).catch(() => undefined);
    await t.app.ensign.snapshots.get('default');
    const file = join(dir, 'features.yml');
    writeFileSync(
      file,
      'version: "1.4"\nnamespace: default\nflags:\n  - key: imported\n    name: Imported\n    type: BOOLEAN_FLAG_TYPE\n    enabled: true\n',
    );
    const config = { ...t.config, db: { ...t.config.db } };
    expect(await importCommand(config, { file })).toMatch(/imported 1 flag/);
    expect((await evaluatedWithin('imported', 1500)).enabled).toBe(true);
  });

  it("reads only the flag another process's store changed", async () => {
    const database = await openDatabase(t.config.db.url, { migrate: false });
    const other = new FliptStore(database, new ChangeFeed(), { readOnly: false });
    const parts = vi.spyOn(t.app.ensign.flipt, 'loadNamespaceParts');
    try {
      await other.createFlag({
        namespaceKey: 'default',
        key: 'from-elsewhere',
        name: 'from elsewhere',
        description: '',
        enabled: false,
        type: 'BOOLEAN_FLAG_TYPE',
        metadata: {},
      });
      expect((await evaluatedWithin('from-elsewhere', 1500)).enabled).toBe(false);
      expect(parts).toHaveBeenCalledWith('default', expect.objectContaining({ placing: ['from-elsewhere'] }));
    } finally {
      parts.mockRestore();
      await database.close();
    }
  });
  it('does not read its own writes again when it follows the history', async () => {
    await t.app.ensign.snapshots.get('default');
    const parts = vi.spyOn(t.app.ensign.flipt, 'loadNamespaceParts');
    try {
      await api.ok('POST', '/api/v1/namespaces/default/flags', { key: 'own', name: 'own', type: 'BOOLEAN_FLAG_TYPE' });
      expect(parts).toHaveBeenCalledTimes(1);
      // two turns of the history's follower (every second)
      await new Promise((resolve) => setTimeout(resolve, 2200));
      expect(parts).toHaveBeenCalledTimes(1);
    } finally {
      parts.mockRestore();
    }
  });
});
