import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, dialects, type TestDatabase } from '../support.js';
import { openDatabase, type Dialect } from '../../../server/db/index.js';
import { parseFeatures, serializeFeatures } from '../../../server/flipt/declarative/format.js';
import { ImportError, importFeatures } from '../../../server/flipt/declarative/import.js';
import { exportFeatures } from '../../../server/flipt/declarative/export.js';
import { ChangeFeed } from '../../../server/changes.js';
import { FliptStore } from '../../../server/flipt/store/index.js';
import { fixture, snapshot, withStoredDefault } from './support.js';
import { generateFeatures } from '../../../bench/support/features.js';

const FIXTURES = ['v1.0.yml', 'v1.1.yml', 'v1.2.yml', 'v1.3.yml', 'v1.4.yml'];

interface Open {
  store: FliptStore;
  /** Every namespace the store published after a commit. */
  published: string[];
  close(): Promise<void>;
}

async function open(dialect: Dialect): Promise<Open> {
  const test: TestDatabase = await createTestDatabase(dialect);
  const database = await openDatabase(test.url);
  const changes = new ChangeFeed();
  const published: string[] = [];
  changes.subscribe((namespace) => {
    published.push(namespace);
  });
  return {
    store: new FliptStore(database, changes, { readOnly: false }),
    published,
    close: async () => {
      await database.close();
      await test.drop();
    },
  };
}

const importText = (store: FliptStore, text: string, options = {}) =>
  importFeatures(store, parseFeatures(text, 'test'), options);

async function failure(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ImportError);
  expect((error as Error).message).not.toContain('\n');
  return error as Error;
}

describe.each(dialects)('import and export on %s', (dialect) => {
  let a: Open;
  let b: Open;
  beforeEach(async () => {
    [a, b] = await Promise.all([open(dialect), open(dialect)]);
  });
  afterEach(async () => {
    await Promise.all([a.close(), b.close()]);
  });

  it('imports a file larger than one batch (2,500 flags) whole and in order, and exports it back', async () => {
    const documents = parseFeatures(generateFeatures(2500), 'generated');
    expect(await importFeatures(a.store, documents)).toMatchObject({ flags: 2500, segments: 20 });
    const flags = (await a.store.listFlags('default')).flags;
    expect(flags.map((flag) => flag.key)).toEqual(documents[0].flags.map((flag) => flag.key));
    expect(await serializeFeatures(await exportFeatures(a.store, { keys: ['default'] }))).toBe(
      await serializeFeatures(withStoredDefault(documents)),
    );
  });

  it.each(FIXTURES)('%s: export then import into an empty database reproduces the same data', async (name) => {
    await importText(a.store, fixture(name));
    const exported = await serializeFeatures(await exportFeatures(a.store, 'all'));
    await importText(b.store, exported);
    const original = await snapshot(a.store);
    expect(await snapshot(b.store)).toEqual(original);
    expect(await serializeFeatures(await exportFeatures(b.store, 'all'))).toBe(exported);
  });

  it('stores what the file says: attachments, default variant, metadata, multi-segment rules and rollouts', async () => {
    await importText(a.store, fixture('v1.3.yml'));
    await importText(a.store, fixture('v1.2.yml'), { skipExisting: true });
    const pricing = await a.store.getFlag('default', 'pricing');
    expect(pricing.metadata).toEqual({ owner: 'growth', ticket: 123, experimental: true, ratio: 0.5 });
    expect(pricing.defaultVariant?.key).toBe('yearly');
    expect(pricing.variants[0].attachment).toBe(
      '{"prices":{"basic":10,"pro":25},"currency":"EUR","tags":["a","b c",null]}',
    );
    const production = ((await snapshot(a.store)) as Record<string, { namespace: unknown }>).production;
    expect(production.namespace).toEqual({
      key: 'production',
      name: 'Production',
      description: 'Live traffic',
      protected: false,
    });
    const state = (await snapshot(a.store)) as Record<
      string,
      { rules: Record<string, unknown>; rollouts: Record<string, unknown> }
    >;
    expect(state.default.rules.search).toEqual([
      {
        flagKey: 'search',
        segmentKey: '',
        distributions: [{ variantId: 'search/v2', rollout: 100 }],
        rank: 1,
        namespaceKey: 'default',
        segmentKeys: ['internal', 'mobile'],
        segmentOperator: 'AND_SEGMENT_OPERATOR',
      },
      expect.objectContaining({ rank: 2, segmentOperator: 'OR_SEGMENT_OPERATOR' }),
    ]);
    expect(state.default.rollouts['dark-mode']).toEqual([
      expect.objectContaining({
        type: 'SEGMENT_ROLLOUT_TYPE',
        rank: 1,
        segment: {
          segmentKey: '',
          segmentKeys: ['internal', 'mobile'],
          segmentOperator: 'AND_SEGMENT_OPERATOR',
          value: true,
        },
      }),
      expect.objectContaining({
        rank: 2,
        segment: expect.objectContaining({ segmentOperator: 'OR_SEGMENT_OPERATOR', value: false }),
      }),
    ]);
  });

  it('exports only the namespaces asked for, in the order given', async () => {
    await importText(a.store, fixture('v1.3.yml'));
    const documents = await exportFeatures(a.store, { keys: ['staging', 'production'] });
    expect(documents.map((d) => d.namespace.key)).toEqual(['staging', 'production']);
    await expect(exportFeatures(a.store, { keys: ['nope'] })).rejects.toThrow('namespace "nope" not found');
  });

  it('refuses a rule over an unknown segment and leaves the database as it was', async () => {
    await importText(a.store, fixture('v1.0.yml'));
    const before = await snapshot(a.store);
    const source = `
flags:
  - {key: fresh, name: Fresh, enabled: true, variants: [{key: a}]}
  - key: another
    name: Another
    variants: [{key: a}]
    rules:
      - segment: nope
        distributions: [{variant: a, rollout: 100}]
`;
    const error = await failure(importText(a.store, source));
    expect(error.message).toBe(
      'namespace "default", flag "another", rules[0]: flag "default/another" or segment "default/nope" not found',
    );
    expect(await snapshot(a.store)).toEqual(before);
  });

  it('refuses what the API would refuse (a bad constraint, a duplicate key) and changes nothing', async () => {
    const before = await snapshot(a.store);
    const badConstraint = `
namespace: fresh
segments:
  - key: s
    name: S
    constraints: [{type: NUMBER_COMPARISON_TYPE, property: age, operator: prefix, value: "1"}]
`;
    expect((await failure(importText(a.store, badConstraint))).message).toBe(
      'namespace "fresh", segment "s", constraints[0] (property "age"): constraint operator "prefix" is not valid for type number',
    );
    expect((await failure(importText(a.store, 'flags:\n  - {key: "bad key", name: B}\n'))).message).toBe(
      'namespace "default", flag "bad key": invalid field key: contains invalid characters',
    );
    expect(await snapshot(a.store)).toEqual(before);

    await importText(a.store, fixture('v1.0.yml'));
    const imported = await snapshot(a.store);
    expect((await failure(importText(a.store, fixture('v1.0.yml')))).message).toBe(
      'namespace "default", flag "color": flag "default/color" is not unique',
    );
    expect(await snapshot(a.store)).toEqual(imported);
  });

  it('is refused by a read-only store', async () => {
    const readOnly = new FliptStore(a.store.database, new ChangeFeed(), { readOnly: true });
    await expect(importText(readOnly, fixture('v1.0.yml'))).rejects.toThrow('not implemented');
    expect(((await snapshot(a.store)) as Record<string, { flags: unknown[] }>).default.flags).toEqual([]);
  });

  it('--skip-existing keeps existing flags and segments and adds the new ones', async () => {
    await importText(a.store, fixture('v1.0.yml'));
    const source = `
flags:
  - {key: color, name: Renamed, enabled: false}
  - {key: added, name: Added, enabled: true}
segments:
  - {key: everyone, name: Renamed}
  - {key: newcomers, name: Newcomers}
`;
    const summary = await importText(a.store, source, { skipExisting: true });
    expect(summary).toEqual({ namespaces: ['default'], flags: 1, segments: 1, skipped: 2 });
    const state = (await snapshot(a.store)) as Record<
      string,
      { flags: { key: string; name: string }[]; segments: { key: string; name: string }[] }
    >;
    expect(state.default.flags.map((f) => [f.key, f.name])).toEqual([
      ['color', 'Color'],
      ['disabled-flag', 'Disabled flag'],
      ['added', 'Added'],
    ]);
    expect(state.default.segments.map((s) => [s.key, s.name])).toEqual([
      ['beta-users', 'Beta users'],
      ['everyone', 'Everyone'],
      ['newcomers', 'Newcomers'],
    ]);
  });

  it('--drop replaces everything, other namespaces included, and publishes every namespace it touched', async () => {
    await importText(a.store, fixture('v1.3.yml'));
    a.published.length = 0;
    await importText(a.store, fixture('v1.0.yml'), { drop: true });
    expect([...new Set(a.published)].sort()).toEqual(['default', 'production', 'staging']);
    await importText(b.store, fixture('v1.0.yml'));
    expect(await snapshot(a.store)).toEqual(await snapshot(b.store));
  });

  it('--drop empties namespaces of flags whose rules and rollouts hold on to segments, over several batches', async () => {
    await importFeatures(a.store, parseFeatures(generateFeatures(1200), 'generated'));
    await importFeatures(a.store, parseFeatures(generateFeatures(300, 'staging'), 'generated'));
    const replacement = parseFeatures(generateFeatures(600), 'replacement');
    expect(await importFeatures(a.store, replacement, { drop: true })).toMatchObject({ flags: 600, segments: 20 });
    await importFeatures(b.store, replacement);
    expect(await snapshot(a.store)).toEqual(await snapshot(b.store));
  });
});
