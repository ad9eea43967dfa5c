import { statSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { ChangeFeed } from '../../../server/changes.js';
import { ConfigError, type GitStorageConfig } from '../../../server/config/index.js';
import { GitStorage, gitProblem } from '../../../server/flipt/declarative/git.js';
import { FliptStore } from '../../../server/flipt/store/index.js';
import { gitStorageFor, startGitRemote, type GitRemote } from '../../support/git-server.js';
import { dialects, startTestApp, type TestApp } from '../support.js';

/** A features file of boolean flags, each on or off. */
function features(flags: Record<string, boolean>, namespace = 'default'): string {
  const entries = Object.entries(flags).map(
    ([key, enabled]) => `  - key: ${key}\n    name: ${key}\n    type: BOOLEAN_FLAG_TYPE\n    enabled: ${enabled}\n`,
  );
  return `version: "1.3"\nnamespace: ${namespace}\nflags:\n${entries.join('')}`;
}

/** Git runs several processes per fetch and load: on a busy machine a test takes tens of seconds. */
const SLOW = 90_000;

/** Polls `check` (every 50 ms) until it stops throwing, or fails with its last error after `timeoutMs`. */
async function eventually<T>(check: () => Promise<T>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

type Log = { info: Mock<(message: string) => void>; error: Mock<(message: string) => void> };

describe('git storage', () => {
  let remote: GitRemote;
  let storage: GitStorage | undefined;
  let log: Log;
  beforeEach(async () => {
    remote = await startGitRemote();
    log = { info: vi.fn<(message: string) => void>(), error: vi.fn<(message: string) => void>() };
  });
  afterEach(async () => {
    await storage?.close();
    storage = undefined;
    await remote.close();
  });

  const open = async (overrides: Partial<GitStorageConfig> = {}) => {
    storage = await GitStorage.open(gitStorageFor(remote, overrides), new ChangeFeed(), log);
    return storage;
  };
  const openError = (overrides: Partial<GitStorageConfig> = {}) =>
    GitStorage.open(gitStorageFor(remote, overrides), new ChangeFeed(), log).then(
      () => expect.unreachable('the storage opened'),
      (error: unknown) => error as Error,
    );
  const flagKeys = async (git: GitStorage, namespace = 'default') =>
    (await git.store.listFlags(namespace)).flags.map((flag) => `${flag.key}:${flag.enabled}`);
  const nextPoll = (git: GitStorage) =>
    new Promise<Error | undefined>((resolve) => {
      const stop = git.onPoll((error) => {
        stop();
        resolve(error);
      });
    });

  it('reads the index and the features files of the followed branch, in its directory, over smart HTTP', async () => {
    remote.commit({
      'features.yml': features({ outside: true }),
      'flags/.flipt.yml': 'include: ["**/*.yml"]\nexclude: ["drafts/**"]\n',
      'flags/web.yml': features({ checkout: true }),
      'flags/team/payments.yml': features({ payouts: false }, 'payments'),
      'flags/drafts/features.yml': features({ draft: true }),
    });
    const git = await open({ directory: 'flags' });
    expect(git.store.readOnly).toBe(true);
    expect(await flagKeys(git)).toEqual(['checkout:true']);
    expect(await flagKeys(git, 'payments')).toEqual(['payouts:false']);
    await expect(git.store.deleteFlag('default', 'checkout')).rejects.toMatchObject({ code: 13 });
  });

  it('reads a file URL too', async () => {
    remote.commit({ 'features.yml': features({ local: true }) });
    const git = await open({ repository: remote.fileUrl, authentication: undefined });
    expect(await flagKeys(git)).toEqual(['local:true']);
  });

  it(
    'refuses to start in one line when the remote is unreachable, refuses the credentials or lacks the ref',
    async () => {
      remote.commit({ 'features.yml': features({ a: true }) });
      const refused = await openError({ authentication: { type: 'basic', username: 'flipt', password: 'wrong' } });
      expect(refused).toBeInstanceOf(ConfigError);
      expect(refused.message).toMatch(new RegExp(`^git storage ${remote.url}: authentication refused: .+$`));
      expect(refused.message).not.toContain('wrong');
      expect((await openError({ ref: 'release' })).message).toBe(
        `git storage ${remote.url}: ref "release" not found in the repository`,
      );
      expect((await openError({ refType: 'semver', ref: 'v9.x' })).message).toBe(
        `git storage ${remote.url}: no tag matches the semver constraint "v9.x"`,
      );
      await remote.stop();
      const unreachable = await openError();
      expect(unreachable.message).toMatch(new RegExp(`^git storage ${remote.url}: repository unreachable: .+$`));
      expect(unreachable.message).not.toContain('\n');
    },
    SLOW,
  );

  it(
    'serves a push within the poll interval; a broken commit or an unreachable remote keeps the last good data',
    async () => {
      remote.commit({ 'features.yml': features({ a: true }) });
      const git = await open();
      git.watch();
      remote.commit({ 'features.yml': features({ a: true, b: false }) });
      await eventually(async () => expect(await flagKeys(git)).toEqual(['a:true', 'b:false']), 20_000);

      const failed = nextPoll(git);
      const broken = remote.commit({ 'features.yml': `${features({ a: false })}    colour: red\n` });
      expect((await failed)?.message).toMatch(/^commit [0-9a-f]{12}: features.yml: .*colour/);
      expect(await flagKeys(git)).toEqual(['a:true', 'b:false']);
      expect(log.error).toHaveBeenCalledTimes(1);
      expect(log.error.mock.calls[0][0]).toMatch(
        new RegExp(
          `^git storage ${remote.url}: commit ${broken.slice(0, 12)}: features.yml: .*colour.*; still serving`,
        ),
      );
      expect(git.health()).toMatchObject({ ref: 'main', error: expect.stringContaining('features.yml') });
      await nextPoll(git);
      expect(log.error).toHaveBeenCalledTimes(1);

      remote.commit({ 'features.yml': features({ c: true }) });
      await eventually(async () => expect(await flagKeys(git)).toEqual(['c:true']), 20_000);
      expect(git.health().error).toBeUndefined();

      await remote.stop();
      await eventually(async () => expect(git.health().error).toMatch(/^repository unreachable: /), 20_000);
      expect(await flagKeys(git)).toEqual(['c:true']);
    },
    SLOW,
  );

  it(
    'answers other branches, tags and commits on demand, and follows the highest semver tag',
    async () => {
      const first = remote.commit({ 'features.yml': features({ a: true }) });
      remote.tag('v1.0.0');
      remote.commit({ 'features.yml': features({ a: false }) });
      remote.tag('v1.1.0');
      remote.commit({ 'features.yml': features({ experimental: true }) }, 'next');
      const git = await open({ refType: 'semver', ref: '^1.0' });
      expect(git.health()).toMatchObject({ ref: 'v1.1.0' });
      expect(await flagKeys(git)).toEqual(['a:false']);
      expect(git.listReferences()).toEqual({ ref: 'v1.1.0', branches: ['main', 'next'], tags: ['v1.0.0', 'v1.1.0'] });

      const at = async (reference: string) => {
        const store = new FliptStore(await git.databaseFor(reference), new ChangeFeed(), { readOnly: true });
        return (await store.listFlags('default')).flags.map((flag) => `${flag.key}:${flag.enabled}`);
      };
      expect(await at('v1.0.0')).toEqual(['a:true']);
      expect(await at('next')).toEqual(['experimental:true']);
      expect(await at(first.slice(0, 10))).toEqual(['a:true']);
      await expect(git.databaseFor('nope')).rejects.toMatchObject({ code: 5, message: 'reference "nope" not found' });
      await expect(git.databaseFor('--upload-pack=x')).rejects.toMatchObject({ code: 3 });

      git.watch();
      remote.commit({ 'features.yml': features({ a: true, b: true }) });
      remote.tag('v1.2.0');
      remote.tag('v2.0.0');
      await eventually(async () => expect(await flagKeys(git)).toEqual(['a:true', 'b:true']), 20_000);
      expect(git.health().ref).toBe('v1.2.0');
    },
    SLOW,
  );
});

describe.each(dialects)('the API over git storage (%s for everything else)', (dialect) => {
  let remote: GitRemote;
  let t: TestApp;
  beforeEach(async () => {
    remote = await startGitRemote();
    remote.commit({ 'features.yml': features({ banner: false }) });
    remote.tag('v1');
    remote.commit({ 'features.yml': features({ banner: true, search: true }) });
    t = await startTestApp(dialect, (config) => {
      config.storage = {
        type: 'git',
        // Credentials in the URL instead of the authentication section.
        git: gitStorageFor(remote, {
          repository: remote.url.replace('//', `//${remote.username}:${remote.password}@`),
          authentication: undefined,
        }),
      };
    });
  }, SLOW);
  afterEach(async () => {
    await t.close();
    await remote.close();
  });

  const get = async (url: string) => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    return response.json();
  };
  const flagKeys = async (url: string) => (await get(url)).flags.map((f: { key: string }) => f.key);

  it(
    'serves the followed ref and ?reference= through the read routes and the snapshot, refusing writes',
    async () => {
      expect(await flagKeys('/api/v1/namespaces/default/flags')).toEqual(['banner', 'search']);
      expect(await flagKeys('/api/v1/namespaces/default/flags?reference=v1')).toEqual(['banner']);
      expect((await get('/api/v1/flags/banner?reference=v1')).enabled).toBe(false);
      expect((await get('/api/v1/flags/banner?reference=main')).enabled).toBe(true);
      const missing = await t.app.inject({ method: 'GET', url: '/api/v1/flags?reference=gone' });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toMatchObject({ message: 'reference "gone" not found' });

      const snapshot = await get('/internal/v1/evaluation/snapshot/namespace/default?reference=v1');
      expect(snapshot.flags.map((f: { key: string; enabled: boolean }) => [f.key, f.enabled])).toEqual([
        ['banner', false],
      ]);
      expect((await get('/internal/v1/evaluation/snapshot/namespace/default')).flags).toHaveLength(2);
      const evaluation = await t.app.inject({
        method: 'POST',
        url: '/evaluate/v1/boolean',
        payload: { flagKey: 'banner', entityId: 'e' },
      });
      expect(evaluation.json()).toMatchObject({ enabled: true });

      const write = await t.app.inject({ method: 'DELETE', url: '/api/v1/flags/banner' });
      expect(write.json()).toEqual({ code: 13, message: 'not implemented', details: [] });
    },
    SLOW,
  );

  it(
    'reports git storage without credentials, its health and its branches and tags',
    async () => {
      const { storage } = await get('/meta/config');
      expect(storage).toEqual({ type: 'git', readOnly: true, git: { ref: 'main', repository: expect.any(String) } });
      expect(storage.git.repository).toBe(remote.url.replace('//', `//${remote.username}:***@`));
      expect(await get('/health')).toEqual({
        status: 'SERVING',
        detail: {
          git: { ref: 'main', commit: expect.stringMatching(/^[0-9a-f]{40}$/), fetchedAt: expect.any(String) },
        },
      });
      expect(await get('/internal/v1/git/references')).toEqual({ ref: 'main', branches: ['main'], tags: ['v1'] });
    },
    SLOW,
  );

  it.runIf(dialect === 'sqlite')(
    'writes nothing to the database on the request path',
    async () => {
      const file = t.database.url.slice('file:'.length);
      const stamp = () => [file, `${file}-wal`].map((path) => statSync(path, { throwIfNoEntry: false })?.mtimeMs);
      const before = stamp();
      for (const reference of ['', 'v1', 'main']) {
        await get(`/api/v1/namespaces/default/flags?reference=${reference}`);
        await get(`/api/v1/namespaces?reference=${reference}`);
        await get(`/internal/v1/evaluation/snapshot/namespace/default?reference=${reference}`);
      }
      expect(stamp()).toEqual(before);
      const rows = await t.app.inject({ method: 'GET', url: '/api/v1/namespaces' });
      expect(rows.statusCode).toBe(200);
    },
    SLOW,
  );
});

describe("git's complaint in one line", () => {
  const failed = new Error('git failed');
  it('names refused credentials, and not a port or path that holds 401 or 403', () => {
    expect(
      gitProblem(
        "fatal: unable to access 'http://127.0.0.1:44013/flags.git/': The requested URL returned error: 403\n",
        failed,
      ),
    ).toBe(
      "authentication refused: unable to access 'http://127.0.0.1:44013/flags.git/': The requested URL returned error: 403",
    );
    expect(gitProblem("fatal: Authentication failed for 'http://127.0.0.1:5000/flags.git/'\n", failed)).toMatch(
      /^authentication refused: /,
    );
    expect(
      gitProblem(
        "fatal: unable to access 'http://127.0.0.1:44013/r401/flags.git/': Failed to connect to 127.0.0.1 port 44013 after 0 ms: Couldn't connect to server\n",
        failed,
      ),
    ).toBe(
      "repository unreachable: unable to access 'http://127.0.0.1:44013/r401/flags.git/': Failed to connect to 127.0.0.1 port 44013 after 0 ms: Couldn't connect to server",
    );
  });
});
