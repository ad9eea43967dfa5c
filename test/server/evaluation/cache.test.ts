import { describe, expect, it } from 'vitest';
import { ALL_NAMESPACES, ChangeFeed } from '../../../server/changes.js';
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

  it('a change during a load: the stale result is not kept, and waiting requests get the new one', async () => {
    const loader = controlledLoader();
    const changes = new ChangeFeed();
    const cache = new SnapshotCache({ loadNamespace: loader.load }, changes);
    const waiting = cache.get('ns');
    loader.write('ns');
    changes.publish('ns');
    loader.finishAll(); // the load that started before the write
    await settle();
    loader.finishAll(); // the reload after the change
    expect(versionOf(await waiting)).toBe('ns@1');
    expect(versionOf(cache.get('ns') as NamespaceSnapshot)).toBe('ns@1');
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
