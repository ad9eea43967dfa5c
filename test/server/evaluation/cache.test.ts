import { describe, expect, it, vi } from 'vitest';
import { ALL_NAMESPACES, ChangeFeed, type ChangeListener, type ChangeOrigin } from '../../../server/changes.js';
import { SnapshotCache, type NamespaceSnapshot } from '../../../server/evaluation/cache.js';
import type { LoadedNamespace } from '../../../server/evaluation/loader.js';

/** A loader whose loads finish when the test says so, each returning the namespace's version at the time it started. */
function controlledLoader() {
  const versions = new Map<string, number>();
  const waiting: (() => void)[] = [];
  let loads = 0;
  const load = (namespaceKey: string): Promise<LoadedNamespace> => {
    loads++;
    const version = versions.get(namespaceKey) ?? 0;
    return new Promise((resolve) =>
      waiting.push(() =>
        // The version read is marked in the document's namespace key, which versionOf reads back.
        resolve({
          exists: true,
          document: { namespace: { key: `${namespaceKey}@${version}` }, flags: [] },
          segments: new Map(),
        }),
      ),
    );
  };
  return {
    load,
    write: (namespaceKey: string) => versions.set(namespaceKey, (versions.get(namespaceKey) ?? 0) + 1),
    finishAll: () => {
      for (const finish of waiting.splice(0)) finish();
    },
    loads: () => loads,
  };
}

const versionOf = (snapshot: NamespaceSnapshot) => snapshot.loaded.document.namespace.key;

const settle = () => new Promise((resolve) => setImmediate(resolve));

/** A change feed a test drives by hand, as the relays deliver changes: `change(key, origin)`. */
function handFeed() {
  let listener: ChangeListener = () => {};
  return {
    subscribe: (given: ChangeListener) => ((listener = given), () => {}),
    change: (namespaceKey: string, origin: ChangeOrigin = 'here') => listener(namespaceKey, origin),
  };
}

describe('SnapshotCache', () => {
  it('loads once, then answers synchronously from memory', async () => {
    const loader = controlledLoader();
    const cache = new SnapshotCache({ loadNamespace: loader.load }, new ChangeFeed());
    const first = cache.get('ns');
    const second = cache.get('ns');
    expect(first).toBe(second);
    loader.finishAll();
    expect(versionOf(await first)).toBe('ns@0');
    expect(versionOf(cache.get('ns') as NamespaceSnapshot)).toBe('ns@0');
    expect(loader.loads()).toBe(1);
  });

  it('a write of this process is answered once the snapshot holds it; requests meanwhile are answered at once', async () => {
    const loader = controlledLoader();
    const changes = new ChangeFeed();
    const cache = new SnapshotCache({ loadNamespace: loader.load }, changes);
    cache.get('ns');
    loader.finishAll();
    await settle();
    loader.write('ns');
    let answered = false;
    const written = changes.publish('ns').then(() => {
      answered = true;
    });
    // Before the write is answered, requests get the snapshot before it, from memory.
    expect(versionOf(cache.get('ns') as NamespaceSnapshot)).toBe('ns@0');
    await settle();
    expect(answered).toBe(false);
    loader.finishAll();
    await written;
    // After it, the snapshot holds it: no request waits.
    expect(versionOf(cache.get('ns') as NamespaceSnapshot)).toBe('ns@1');
    expect(loader.loads()).toBe(2);
  });

  it('writes made during a load are answered by the load that follows it', async () => {
    const loader = controlledLoader();
    const changes = new ChangeFeed();
    const cache = new SnapshotCache({ loadNamespace: loader.load }, changes);
    cache.get('ns');
    loader.finishAll();
    await settle();
    const answered: string[] = [];
    loader.write('ns');
    const first = changes.publish('ns').then(() => answered.push('first'));
    await settle(); // its load has started
    loader.write('ns');
    const second = changes.publish('ns').then(() => answered.push('second'));
    loader.finishAll();
    await first;
    await settle();
    expect(answered).toEqual(['first']);
    expect(versionOf(cache.get('ns') as NamespaceSnapshot)).toBe('ns@1');
    loader.finishAll();
    await second;
    expect(answered).toEqual(['first', 'second']);
    expect(versionOf(cache.get('ns') as NamespaceSnapshot)).toBe('ns@2');
  });

  it('a write whose load fails is answered, and the requests after it wait for a load that holds it', async () => {
    let fail = false;
    let version = 0;
    const loadNamespace = async (key: string): Promise<LoadedNamespace> => {
      if (fail) throw new Error('database unavailable');
      return { exists: true, document: { namespace: { key: `${key}@${version}` }, flags: [] }, segments: new Map() };
    };
    const changes = new ChangeFeed();
    const cache = new SnapshotCache({ loadNamespace }, changes);
    await cache.get('ns');
    fail = true;
    version = 1;
    await changes.publish('ns');
    fail = false;
    const after = cache.get('ns');
    expect(after).toBeInstanceOf(Promise);
    expect(versionOf(await after)).toBe('ns@1');
  });

  it('a write to a namespace no one has asked for is answered at once', async () => {
    const loader = controlledLoader();
    const changes = new ChangeFeed();
    new SnapshotCache({ loadNamespace: loader.load }, changes);
    await changes.publish('ns');
    expect(loader.loads()).toBe(0);
  });

  it("after a sibling worker's change, a request waits for one load that started after it arrived, whatever changes after", async () => {
    const loader = controlledLoader();
    const changes = handFeed();
    const cache = new SnapshotCache({ loadNamespace: loader.load }, changes);
    const beforeChange = cache.get('ns');
    loader.write('ns');
    changes.change('ns');
    const afterChange = cache.get('ns');
    loader.finishAll(); // the load that started before the change answers the request that came before it
    expect(versionOf(await beforeChange)).toBe('ns@0');
    await settle();
    // The next load has started; changes keep coming while it runs.
    loader.write('ns');
    changes.change('ns');
    const afterSecondChange = cache.get('ns');
    loader.finishAll();
    expect(versionOf(await afterChange)).toBe('ns@1');
    await settle();
    loader.finishAll();
    expect(versionOf(await afterSecondChange)).toBe('ns@2');
    expect(versionOf(cache.get('ns') as NamespaceSnapshot)).toBe('ns@2');
    expect(loader.loads()).toBe(3);
  });

  it('under a stream of sibling changes, every request is answered within two loads', async () => {
    const loader = controlledLoader();
    const changes = handFeed();
    const cache = new SnapshotCache({ loadNamespace: loader.load }, changes);
    cache.get('ns');
    loader.finishAll();
    await settle();
    for (let round = 0; round < 20; round++) {
      loader.write('ns');
      changes.change('ns');
      let answered: string | undefined;
      Promise.resolve(cache.get('ns')).then((snapshot) => {
        answered = versionOf(snapshot);
      });
      // Another change lands during each load.
      for (let load = 0; load < 2 && answered === undefined; load++) {
        loader.write('ns');
        changes.change('ns');
        await settle();
        loader.finishAll();
        await settle();
      }
      expect(answered, `round ${round}`).toBeDefined();
    }
  });

  it('a load that started after a sibling change answers later requests too, without another load', async () => {
    const loader = controlledLoader();
    const changes = handFeed();
    const cache = new SnapshotCache({ loadNamespace: loader.load }, changes);
    cache.get('ns');
    loader.write('ns');
    changes.change('ns');
    const waiting = cache.get('ns');
    loader.finishAll();
    await settle();
    const alsoWaiting = cache.get('ns');
    loader.finishAll();
    expect(versionOf(await waiting)).toBe('ns@1');
    expect(versionOf(await alsoWaiting)).toBe('ns@1');
    expect(loader.loads()).toBe(2);
  });

  it("serves the snapshot in memory while it reloads another instance's change", async () => {
    const loader = controlledLoader();
    let listener: ChangeListener = () => {};
    const relayed = { subscribe: (given: ChangeListener) => ((listener = given), () => {}) };
    const cache = new SnapshotCache({ loadNamespace: loader.load }, relayed);
    cache.get('ns');
    loader.finishAll();
    await settle();
    loader.write('ns');
    listener('ns', 'elsewhere');
    await settle();
    expect(loader.loads()).toBe(2);
    expect(versionOf(cache.get('ns') as NamespaceSnapshot)).toBe('ns@0');
    loader.finishAll();
    await settle();
    expect(versionOf(cache.get('ns') as NamespaceSnapshot)).toBe('ns@1');
    // A change of this instance's is waited for.
    loader.write('ns');
    listener('ns', 'here');
    const waiting = cache.get('ns');
    expect(waiting).toBeInstanceOf(Promise);
    await settle();
    loader.finishAll();
    expect(versionOf(await waiting)).toBe('ns@2');
  });

  it('reloads changed namespaces eagerly, once per burst of changes, and all of them on ALL_NAMESPACES', async () => {
    const loader = controlledLoader();
    const changes = new ChangeFeed();
    const cache = new SnapshotCache({ loadNamespace: loader.load }, changes);
    cache.get('a');
    cache.get('b');
    loader.finishAll();
    await settle();
    for (let i = 0; i < 5; i++) {
      loader.write('a');
      changes.publish('a');
    }
    await settle();
    expect(loader.loads()).toBe(3);
    loader.finishAll();
    await settle();
    expect(versionOf(cache.get('a') as NamespaceSnapshot)).toBe('a@5');

    loader.write('b');
    changes.publish(ALL_NAMESPACES);
    await settle();
    loader.finishAll();
    await settle();
    expect(versionOf(cache.get('b') as NamespaceSnapshot)).toBe('b@1');
    expect(loader.loads()).toBe(5);
  });

  it("a failed reload of another instance's change is tried again, so the stale snapshot does not stay", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      let fail = false;
      let version = 0;
      const loadNamespace = async (key: string): Promise<LoadedNamespace> => {
        if (fail) throw new Error('database unavailable');
        return { exists: true, document: { namespace: { key: `${key}@${version}` }, flags: [] }, segments: new Map() };
      };
      let listener: ChangeListener = () => {};
      const cache = new SnapshotCache({ loadNamespace }, { subscribe: (given) => ((listener = given), () => {}) });
      await cache.get('ns');
      fail = true;
      version = 1;
      listener('ns', 'elsewhere');
      await settle();
      await settle();
      expect(versionOf(cache.get('ns') as NamespaceSnapshot)).toBe('ns@0');
      fail = false;
      await vi.advanceTimersByTimeAsync(1000);
      await settle();
      expect(versionOf(cache.get('ns') as NamespaceSnapshot)).toBe('ns@1');
    } finally {
      vi.useRealTimers();
    }
  });

  it('a failed load is retried by the next request', async () => {
    let fail = true;
    const loadNamespace = async (key: string) => {
      if (fail) throw new Error('database unavailable');
      return { exists: true, document: { namespace: { key }, flags: [] }, segments: new Map() };
    };
    const cache = new SnapshotCache({ loadNamespace }, new ChangeFeed());
    await expect(cache.get('ns')).rejects.toThrow('database unavailable');
    fail = false;
    expect((await cache.get('ns')).exists).toBe(true);
  });
});
