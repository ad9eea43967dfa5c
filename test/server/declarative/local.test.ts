import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { ChangeFeed } from '../../../server/changes.js';
import { ConfigError } from '../../../server/config/index.js';
import { findFeaturesFiles, globToRegExp, LocalStorage } from '../../../server/flipt/declarative/local.js';
import { dialects, startTestApp, type TestApp } from '../support.js';
import { fixturePath } from './support.js';

const READ_ONLY = { code: 13, message: 'not implemented', details: [] };

/** A copy of the fixture folder that a test may edit. */
function copyFixtureFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ensign-local-test-'));
  cpSync(fixturePath('local'), dir, { recursive: true });
  return dir;
}

const ADDED_FLAG = `
  - key: farewell
    name: Farewell
    enabled: true
`;

describe('local storage', () => {
  let dir: string;
  let changes: ChangeFeed;
  let log: { info: Mock<(message: string) => void>; error: Mock<(message: string) => void> };
  let storage: LocalStorage | undefined;
  beforeEach(() => {
    dir = copyFixtureFolder();
    changes = new ChangeFeed();
    log = { info: vi.fn<(message: string) => void>(), error: vi.fn<(message: string) => void>() };
  });
  afterEach(async () => {
    await storage?.close();
    storage = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  /** Resolves with the outcome of the next reload. */
  const nextReload = (local: LocalStorage) =>
    new Promise<Error | undefined>((resolve) => {
      const stop = local.onReload((error) => {
        stop();
        resolve(error);
      });
    });

  /**
   * Resolves after a reload once `ready` holds; it is checked after every reload, so however the
   * writes are split into reloads, the last one is seen. A failed reload rejects.
   */
  const reloadedUntil = (local: LocalStorage, ready: () => Promise<boolean>) =>
    new Promise<void>((resolve, reject) => {
      const stop = local.onReload((error) => {
        if (error) {
          stop();
          return reject(error);
        }
        ready().then((done) => {
          if (done) {
            stop();
            resolve();
          }
        }, reject);
      });
    });

  it('finds features.yml and *.features.yaml at any depth, and nothing else', () => {
    expect(findFeaturesFiles(dir).map((file) => file.slice(dir.length + 1))).toEqual([
      'features.yml',
      'team/payments.features.yaml',
    ]);
  });

  it('selects files by the globs of a .flipt.yml index when there is one', () => {
    const found = () => findFeaturesFiles(dir).map((file) => file.slice(dir.length + 1));
    writeFileSync(join(dir, 'team', 'extra.yml'), 'flags: []\n');
    writeFileSync(
      join(dir, '.flipt.yml'),
      'version: "1.0"\ninclude:\n  - "team/*.yml"\n  - "**/features.yml"\nexclude:\n  - "**/notes.yml"\n',
    );
    expect(found()).toEqual(['features.yml', 'team/extra.yml']);
    writeFileSync(join(dir, '.flipt.yml'), 'exclude: ["team/**"]\n');
    expect(found()).toEqual(['features.yml']);
    writeFileSync(join(dir, '.flipt.yml'), 'include: "*.yml"\n');
    expect(() => findFeaturesFiles(dir)).toThrow('.flipt.yml: include must be a list of glob patterns');
    writeFileSync(join(dir, '.flipt.yml'), 'version: "2.0"\n');
    expect(() => findFeaturesFiles(dir)).toThrow('.flipt.yml: unsupported version "2.0" (expected "1.0")');
  });

  it('matches globs the way Flipt does: ** across folders, * and ? within one', () => {
    const cases: [string, string, boolean][] = [
      ['**/features.yml', 'features.yml', true],
      ['**/features.yml', 'a/b/features.yml', true],
      ['*.features.yml', 'a/x.features.yml', false],
      ['*/x?.yml', 'a/x1.yml', true],
      ['*/x?.yml', 'a/x12.yml', false],
      ['a/**', 'a/b/c.yml', true],
      ['a.b/(c).yml', 'a.b/(c).yml', true],
      ['a.b/(c).yml', 'aXb/(c).yml', false],
    ];
    for (const [glob, path, matches] of cases) expect(globToRegExp(glob).test(path), `${glob} ~ ${path}`).toBe(matches);
  });

  it('loads every file, refuses writes, and reloads after an edit, publishing every namespace', async () => {
    storage = await LocalStorage.open(dir, changes, log);
    expect(storage.store.readOnly).toBe(true);
    expect((await storage.store.listNamespaces()).namespaces.map((n) => n.key)).toEqual(['default', 'payments']);
    await expect(storage.store.deleteFlag('default', 'greeting')).rejects.toMatchObject({
      code: 13,
      message: 'not implemented',
    });

    const published: string[] = [];
    changes.subscribe((key) => {
      published.push(key);
    });
    storage.watch();
    const local = storage;
    const flagKeys = async () => (await local.store.listFlags('default')).flags.map((f) => f.key);
    const reloaded = reloadedUntil(local, async () => (await flagKeys()).includes('farewell'));
    writeFileSync(
      join(dir, 'features.yml'),
      readFileSync(join(dir, 'features.yml'), 'utf8').replace('flags:\n', `flags:${ADDED_FLAG}`),
    );
    await reloaded;
    expect(await flagKeys()).toEqual(['farewell', 'greeting']);
    expect([...new Set(published)].sort()).toEqual(['default', 'payments']);
  });

  it('keeps serving the last good data when a file breaks, and logs why', async () => {
    storage = await LocalStorage.open(dir, changes, log);
    storage.watch();
    const failed = nextReload(storage);
    writeFileSync(join(dir, 'team', 'payments.features.yaml'), 'flags: [\n');
    const error = await failed;
    expect(error?.message).toMatch(/^team\/payments\.features\.yaml: document 1: invalid YAML/);
    expect(log.error).toHaveBeenCalledWith(
      expect.stringContaining('reload failed, still serving the last good data: team/payments.features.yaml'),
    );
    expect((await storage.store.getFlag('payments', 'instant-payouts')).key).toBe('instant-payouts');

    const local = storage;
    const namespaceKeys = async () => (await local.store.listNamespaces()).namespaces.map((n) => n.key).sort();
    const fixed = reloadedUntil(local, async () => (await namespaceKeys()).length === 3);
    mkdirSync(join(dir, 'more'));
    writeFileSync(join(dir, 'team', 'payments.features.yaml'), 'namespace: payments\nflags: []\n');
    writeFileSync(join(dir, 'more', 'features.yaml'), 'namespace: extra\nflags: [{key: x, name: X}]\n');
    await fixed;
    expect(await namespaceKeys()).toEqual(['default', 'extra', 'payments']);
    expect((await storage.store.listFlags('payments')).flags).toEqual([]);
  });

  it('refuses to start on a broken folder, naming the file and the field', async () => {
    writeFileSync(join(dir, 'features.yml'), 'flags:\n  - key: a\n');
    const error = await LocalStorage.open(dir, changes, log).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(
      `local storage ${dir}: features.yml: document 1 (namespace "default"), flag "a", name: is required`,
    );
    const missing = await LocalStorage.open(join(dir, 'absent'), changes, log).catch((caught: unknown) => caught);
    expect((missing as Error).message).toBe(`local storage ${join(dir, 'absent')}: cannot read the folder: ENOENT`);
  });
});

describe.each(dialects)('the API over local storage (%s for everything else)', (dialect) => {
  let dir: string;
  let t: TestApp;
  beforeEach(async () => {
    dir = copyFixtureFolder();
    t = await startTestApp(dialect, (config) => {
      config.storage = { type: 'local', localPath: dir };
    });
  });
  afterEach(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = async (url: string) => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode, url).toBe(200);
    return response.json();
  };

  it('serves the files through the read routes and reports read-only local storage', async () => {
    expect((await get('/api/v1/namespaces')).namespaces.map((n: { key: string }) => n.key)).toEqual([
      'default',
      'payments',
    ]);
    const greeting = await get('/api/v1/namespaces/default/flags/greeting');
    expect(greeting).toMatchObject({ key: 'greeting', name: 'Greeting', enabled: true, type: 'VARIANT_FLAG_TYPE' });
    expect(greeting.defaultVariant).toMatchObject({ key: 'hello', attachment: '{"text":"Hello there"}' });
    const rules = await get('/api/v1/namespaces/default/flags/greeting/rules');
    expect(rules.rules).toEqual([expect.objectContaining({ segmentKey: 'texans', rank: 1 })]);
    expect(rules.rules[0].distributions[0]).toMatchObject({ rollout: 100, variantId: greeting.variants[1].id });
    expect((await get('/api/v1/segments/texans')).constraints[0]).toMatchObject({
      property: 'state',
      operator: 'eq',
      value: 'TX',
    });
    const rollouts = await get('/api/v1/namespaces/payments/flags/instant-payouts/rollouts');
    expect(rollouts.rules).toEqual([
      expect.objectContaining({ type: 'THRESHOLD_ROLLOUT_TYPE', threshold: { percentage: 10, value: true } }),
    ]);
    expect((await get('/meta/config')).storage).toEqual({ type: 'local', readOnly: true });
  });

  it("answers every write with Flipt's read-only error and changes nothing", async () => {
    const writes: [string, string, unknown][] = [
      ['POST', '/api/v1/namespaces', { key: 'new', name: 'New' }],
      ['POST', '/api/v1/namespaces/default/flags', { key: 'new', name: 'New', type: 'VARIANT_FLAG_TYPE' }],
      ['PUT', '/api/v1/namespaces/default/flags/greeting', { name: 'Renamed' }],
      ['DELETE', '/api/v1/namespaces/default/flags/greeting', undefined],
      ['POST', '/api/v1/namespaces/default/segments', { key: 'new', name: 'New' }],
      ['DELETE', '/api/v1/namespaces/default/segments/texans', undefined],
    ];
    for (const [method, url, payload] of writes) {
      const response = await t.app.inject({ method: method as 'POST', url, payload: payload as object });
      expect(response.statusCode, `${method} ${url}`).toBe(500);
      expect(response.json()).toEqual(READ_ONLY);
    }
    expect((await get('/api/v1/namespaces/default/flags/greeting')).name).toBe('Greeting');
    expect((await get('/api/v1/namespaces')).namespaces).toHaveLength(2);
  });

  it('serves and evaluates the new data after a file changes', async () => {
    const evaluate = async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/evaluate/v1/variant',
        payload: { namespaceKey: 'default', flagKey: 'greeting', entityId: 'u1', context: { state: 'TX' } },
      });
      expect(response.statusCode).toBe(200);
      return response.json() as { match: boolean; variantKey: string };
    };
    expect(await evaluate()).toMatchObject({ match: true, variantKey: 'howdy' });

    const file = join(dir, 'features.yml');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace('flags:\n', `flags:${ADDED_FLAG}`).replace('value: TX', 'value: CA'),
    );
    await vi.waitFor(
      async () => {
        const { flags } = await get('/api/v1/namespaces/default/flags');
        expect(flags.map((f: { key: string }) => f.key)).toContain('farewell');
      },
      { timeout: 10_000, interval: 50 },
    );
    // The reload published the namespace, so the evaluation cache dropped its compiled copy.
    expect(await evaluate()).toMatchObject({ match: false, variantKey: 'hello' });
  });
});
