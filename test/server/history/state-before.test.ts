import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FlagState } from '../../../domain/flipt/history.js';
import { ChangeFeed } from '../../../server/changes.js';
import { type Database, openDatabase } from '../../../server/db/index.js';
import { parseFeatures } from '../../../server/flipt/declarative/format.js';
import { importFeatures } from '../../../server/flipt/declarative/import.js';
import { FliptStore } from '../../../server/flipt/store/index.js';
import { createTestDatabase, dialects, type TestDatabase } from '../support.js';

const features = (variant: string) => `version: "1.2"
namespace: s
flags:
  - key: f
    name: F
    type: VARIANT_FLAG_TYPE
    enabled: true
    variants:
      - key: ${variant}
`;

// A change's state before is taken from the entity's latest entry when nothing has changed the
// entity since without one (store/history.ts recordedState); these are the changes that do.
describe.each(dialects)('the state before a change on %s', (dialect) => {
  let test: TestDatabase;
  let database: Database;
  let store: FliptStore;
  const update = (name: string) =>
    store.updateFlag({ namespaceKey: 's', key: 'f', name, description: '', enabled: true, defaultVariantId: '' });
  const latest = async () =>
    (await store.listHistory('s', { entityType: 'flag', entityKey: 'f', limit: 1 })).entries[0];
  const stored = async (): Promise<FlagState> => ({
    flag: await store.getFlag('s', 'f'),
    rules: (await store.listRules('s', 'f')).rules,
    rollouts: (await store.listRollouts('s', 'f')).rules,
  });

  beforeEach(async () => {
    test = await createTestDatabase(dialect);
    database = await openDatabase(test.url);
    store = new FliptStore(database, new ChangeFeed(), { readOnly: false });
    await importFeatures(store, parseFeatures(features('blue'), 'first'));
  });
  afterEach(async () => {
    await database.close();
    await test.drop();
  });

  it('is the flag as stored after an import replaced it, and each after is the flag as stored', async () => {
    await update('F1');
    expect((await latest()).after).toEqual(await stored());
    await importFeatures(store, parseFeatures(features('red'), 'second'), { drop: true });
    await update('F2');
    const entry = await latest();
    expect((entry.before as FlagState).flag.variants.map((variant) => variant.key)).toEqual(['red']);
    expect(entry.after).toEqual(await stored());
  });

  it('is the flag as stored when its history starts later than the flag (entries removed by retention)', async () => {
    await update('F1');
    await database.db.deleteFrom('history').execute();
    await update('F2');
    const entry = await latest();
    expect((entry.before as FlagState).flag.name).toBe('F1');
    expect(entry.after).toEqual(await stored());
  });
});
