import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dialects, type TestDatabase } from '../support.js';
import { openDatabase, type Database } from '../../../server/db/index.js';
import { defaultConfig } from '../../../server/config/index.js';
import { ChangeFeed } from '../../../server/changes.js';
import { FliptStore } from '../../../server/flipt/store/index.js';
import { parseFeatures, serializeFeatures, streamFeatures } from '../../../server/flipt/declarative/format.js';
import { ImportError, importFeatures } from '../../../server/flipt/declarative/import.js';
import { exportCommand } from '../../../server/flipt/declarative/commands.js';
import { FormatError } from '../../../server/flipt/declarative/format.js';
import { generateFeatures } from '../../../bench/support/features.js';
import { fixture, snapshot, withStoredDefault } from './support.js';

/** What `ensign export --all-namespaces` writes for the database at `url`, collected from its pages. */
async function exported(url: string): Promise<string> {
  const config = defaultConfig();
  config.db.url = url;
  let text = '';
  await exportCommand(config, { allNamespaces: true }, async (part) => {
    text += part;
  });
  return text;
}

describe('a large file (6,000 flags: six import batches, twelve export pages), streamed in', () => {
  const text = generateFeatures(6000);

  it('gives the same export on every database, the file as written', { timeout: 300_000 }, async () => {
    const exports: string[] = [];
    for (const dialect of dialects) {
      const test = await createTestDatabase(dialect);
      const database = await openDatabase(test.url);
      try {
        const store = new FliptStore(database, new ChangeFeed(), { readOnly: false });
        const progress: number[] = [];
        const summary = await importFeatures(store, streamFeatures(text, 'large'), {
          onProgress: (flags) => progress.push(flags),
        });
        expect(summary).toEqual({ namespaces: ['default'], flags: 6000, segments: 20, skipped: 0 });
        expect(progress.at(-1)).toBe(6000);
        expect(progress.length).toBeGreaterThanOrEqual(6);
        exports.push(await exported(test.url));
      } finally {
        await database.close();
        await test.drop();
      }
    }
    const written = await serializeFeatures(withStoredDefault(parseFeatures(text)));
    for (const one of exports) expect(one === written).toBe(true);
  });
});

describe.each(dialects)('a bad flag near the end of a streamed file on %s', (dialect) => {
  let test: TestDatabase;
  let database: Database;
  let store: FliptStore;
  let before: unknown;
  beforeAll(async () => {
    test = await createTestDatabase(dialect);
    database = await openDatabase(test.url);
    store = new FliptStore(database, new ChangeFeed(), { readOnly: false });
    await importFeatures(store, parseFeatures(fixture('v1.3.yml')));
    before = await snapshot(store);
  });
  afterAll(async () => {
    await database.close();
    await test.drop();
  });

  // 2,500 flags into an empty namespace: two batches of 1,000 are written before flag 2,400 is read.
  const generated = generateFeatures(2500, 'imported');
  const importing = (source: string) => importFeatures(store, streamFeatures(source, 'large.yml'));

  it('a flag the format refuses rolls the whole file back, naming the flag', { timeout: 60_000 }, async () => {
    const source = generated.replace(
      'number 2400 for the scale benchmarks\n    type: VARIANT_FLAG_TYPE',
      'number 2400 for the scale benchmarks\n    type: NOPE_FLAG_TYPE',
    );
    expect(source).not.toBe(generated);
    const error = await importing(source).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FormatError);
    expect((error as Error).message).toBe(
      'large.yml: document 1 (namespace "imported"), flag "flag_002400", type: must be one of VARIANT_FLAG_TYPE, BOOLEAN_FLAG_TYPE (got "NOPE_FLAG_TYPE")',
    );
    expect(await snapshot(store)).toEqual(before);
  });

  it('a rule over a missing segment rolls the whole file back, naming the flag', { timeout: 60_000 }, async () => {
    const at = generated.indexOf('key: flag_002410');
    const source = `${generated.slice(0, at)}${generated.slice(at).replace('segment: segment_10', 'segment: nowhere')}`;
    const error = await importing(source).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as Error).message).toMatch(/^namespace "imported", flag "flag_002410", rules\[0\]: .*nowhere/);
    expect(await snapshot(store)).toEqual(before);
  });

  it('a syntax error inside a late flag rolls the whole file back', { timeout: 60_000 }, async () => {
    const source = generated.replace('name: Flag 2450\n', 'name: [Flag 2450\n');
    const error = await importing(source).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FormatError);
    expect((error as Error).message).toMatch(/^large\.yml: document 1: invalid YAML: /);
    expect(await snapshot(store)).toEqual(before);
  });
});
