import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../../server/cli.js';
import { buildApp } from '../../../server/app.js';
import { defaultConfig } from '../../../server/config/index.js';
import { openDatabase } from '../../../server/db/index.js';
import { ChangeFeed } from '../../../server/changes.js';
import { FliptStore } from '../../../server/flipt/store/index.js';
import { parseFeatures, serializeFeatures } from '../../../server/flipt/declarative/format.js';
import { createTestDatabase, dialects, type TestDatabase } from '../support.js';
import { fixture, fixturePath, snapshot, STORED_DEFAULT, withStoredDefault } from './support.js';

class Exit extends Error {
  constructor(readonly code: number | undefined) {
    super(`exit ${code}`);
  }
}

/** Runs `ensign ARGS` in this process; returns what it printed, or the exit code and message when it failed. */
async function ensign(...args: string[]): Promise<{ stdout: string; stderr: string; exitCode?: number }> {
  let stdout = '';
  let stderr = '';
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  const error = vi.spyOn(console, 'error').mockImplementation((...parts: unknown[]) => {
    stderr += `${parts.join(' ')}\n`;
  });
  const exit = vi.spyOn(process, 'exit').mockImplementation((code) => {
    throw new Exit(code === undefined ? undefined : Number(code));
  });
  try {
    await main(args);
    return { stdout, stderr };
  } catch (caught) {
    if (caught instanceof Exit) return { stdout, stderr, exitCode: caught.code };
    throw caught;
  } finally {
    write.mockRestore();
    error.mockRestore();
    exit.mockRestore();
  }
}

async function stateOf(url: string): Promise<unknown> {
  const database = await openDatabase(url);
  try {
    return await snapshot(new FliptStore(database, new ChangeFeed(), { readOnly: true }));
  } finally {
    await database.close();
  }
}

describe.each(dialects)('ensign import and export on %s', (dialect) => {
  let a: TestDatabase;
  let b: TestDatabase;
  let dir: string;
  beforeEach(async () => {
    [a, b] = await Promise.all([createTestDatabase(dialect), createTestDatabase(dialect)]);
    dir = mkdtempSync(join(tmpdir(), 'ensign-cli-'));
  });
  afterEach(async () => {
    await Promise.all([a.drop(), b.drop()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('imports a file, exports it, and the export imports into an empty database as the same data', async () => {
    const imported = await ensign('import', fixturePath('v1.3.yml'), '--db', a.url);
    expect(imported.exitCode).toBeUndefined();
    expect(imported.stderr).toBe('imported 3 flag(s) and 2 segment(s) into default, production, staging\n');

    const file = join(dir, 'all.yml');
    expect((await ensign('export', '--all-namespaces', '-o', file, '--db', a.url)).stdout).toBe('');
    const exported = readFileSync(file, 'utf8');
    // The same documents, each namespace written as the mapping the database holds.
    const withoutNames = (text: string) => parseFeatures(text).map((d) => ({ ...d, namespace: d.namespace.key }));
    expect(withoutNames(exported)).toEqual(withoutNames(fixture('v1.3.yml')));
    expect(parseFeatures(exported).map((d) => d.namespace)).toEqual([
      STORED_DEFAULT,
      { key: 'production', name: 'Production', description: 'Live traffic' },
      { key: 'staging', name: 'staging' },
    ]);

    expect((await ensign('import', file, '--db', b.url)).exitCode).toBeUndefined();
    expect(await stateOf(b.url)).toEqual(await stateOf(a.url));
  });

  it('exports namespace "default" to standard output by default, and the namespaces asked for', async () => {
    await ensign('import', fixturePath('v1.3.yml'), '--db', a.url);
    const { stdout } = await ensign('export', '--db', a.url);
    expect(parseFeatures(stdout).map((d) => d.namespace.key)).toEqual(['default']);
    expect(stdout.startsWith('version: "1.4"\nnamespace:\n  key: default\n  name: Default\n')).toBe(true);
    const some = await ensign('export', '--namespaces', 'staging,production', '--db', a.url);
    expect(parseFeatures(some.stdout).map((d) => d.namespace.key)).toEqual(['staging', 'production']);
    expect(await ensign('export', '--namespaces', 'nope', '--db', a.url)).toMatchObject({
      exitCode: 1,
      stderr: 'ensign: namespace "nope" not found\n',
    });
    expect(await ensign('export', '--namespaces', 'a', '--all-namespaces', '--db', a.url)).toMatchObject({
      exitCode: 1,
      stderr: 'ensign: --namespaces and --all-namespaces cannot be used together\n',
    });
  });

  it('reads --stdin, and honours --skip-existing and --drop', async () => {
    const stdin = vi
      .spyOn(process, 'stdin', 'get')
      .mockReturnValue(Readable.from([fixture('v1.0.yml')]) as typeof process.stdin);
    try {
      expect((await ensign('import', '--stdin', '--db', a.url)).stderr).toBe(
        'imported 2 flag(s) and 2 segment(s) into default\n',
      );
    } finally {
      stdin.mockRestore();
    }
    const again = await ensign('import', fixturePath('v1.0.yml'), '--skip-existing', '--db', a.url);
    expect(again.stderr).toBe('imported 0 flag(s) and 0 segment(s) into default; skipped 4 that already existed\n');

    await ensign('import', fixturePath('v1.3.yml'), '--db', b.url);
    expect((await ensign('import', fixturePath('v1.0.yml'), '--drop', '--db', b.url)).exitCode).toBeUndefined();
    expect(await stateOf(b.url)).toEqual(await stateOf(a.url));
  });

  it('names the problem in one line and changes nothing when the import fails', async () => {
    await ensign('import', fixturePath('v1.0.yml'), '--db', a.url);
    const before = await stateOf(a.url);
    const broken = join(dir, 'broken.yml');
    writeFileSync(
      broken,
      'flags:\n  - key: x\n    name: X\n    variants: [{key: a}]\n    rules:\n      - segment: missing\n',
    );
    expect(await ensign('import', broken, '--db', a.url)).toMatchObject({
      exitCode: 1,
      stderr:
        'ensign: namespace "default", flag "x", rules[0]: flag "default/x" or segment "default/missing" not found\n',
    });
    writeFileSync(broken, 'flags: [\n');
    const badYaml = await ensign('import', broken, '--db', a.url);
    expect(badYaml.exitCode).toBe(1);
    expect(badYaml.stderr).toMatch(new RegExp(`^ensign: ${broken}: document 1: invalid YAML: [^\\n]+\\n$`));
    expect(await ensign('import', join(dir, 'absent.yml'), '--db', a.url)).toMatchObject({
      exitCode: 1,
      stderr: `ensign: cannot read ${join(dir, 'absent.yml')}: ENOENT\n`,
    });
    expect(await ensign('import', '--db', a.url)).toMatchObject({
      exitCode: 1,
      stderr: 'ensign: import needs a file name or --stdin (exactly one of them)\n',
    });
    expect(await stateOf(a.url)).toEqual(before);
  });

  it('ends an alias bomb, a 50 MB file and a bad config with one line and exit code 1', async () => {
    const bomb = join(dir, 'bomb.yml');
    const levels = ['a: &a [x, x, x, x, x, x, x, x, x]'];
    for (const [previous, name] of [...'abcdefgh'].slice(0, -1).map((letter, index) => [letter, 'bcdefgh'[index]])) {
      levels.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(', ')}]`);
    }
    writeFileSync(bomb, `${levels.join('\n')}\nflags: [*h]\n`);
    const bombed = await ensign('import', bomb, '--db', a.url);
    expect(bombed).toMatchObject({ exitCode: 1 });
    expect(bombed.stderr).toMatch(new RegExp(`^ensign: ${bomb}: document 1: [^\\n]*alias[^\\n]*\\n$`, 'i'));

    const huge = join(dir, 'huge.yml');
    const flag = (index: number) => `  - {key: flag-${index}, name: Flag ${index}, description: ${'x'.repeat(200)}}\n`;
    const chunk = Array.from({ length: 1000 }, (_, index) => flag(index)).join('');
    writeFileSync(huge, `flags:\n${chunk.repeat(Math.ceil((50 * 1024 * 1024) / chunk.length))}`);
    const tooBig = await ensign('import', huge, '--db', a.url);
    expect(tooBig).toMatchObject({ exitCode: 1 });
    expect(tooBig.stderr).toBe(`ensign: ${huge} is larger than 32 MB, the most import reads\n`);

    const config = join(dir, 'config.yml');
    writeFileSync(config, 'db: [\n');
    const badConfig = await ensign('import', fixturePath('v1.0.yml'), '--config', config, '--db', a.url);
    expect(badConfig).toMatchObject({ exitCode: 1 });
    expect(badConfig.stderr).toMatch(/^ensign: [^\n]+\n$/);
  }, 120_000);

  it.runIf(dialect === 'postgres')(
    'tells servers on the same PostgreSQL database, so they evaluate the imported data',
    async () => {
      await ensign('import', fixturePath('v1.0.yml'), '--db', a.url);
      const config = defaultConfig();
      config.db.url = a.url;
      const app = await buildApp(config);
      try {
        const evaluate = async () => {
          const payload = { namespaceKey: 'default', flagKey: 'color', entityId: 'u1', context: { plan: 'beta' } };
          return (await app.inject({ method: 'POST', url: '/evaluate/v1/variant', payload })).json();
        };
        expect(await evaluate()).toMatchObject({ match: true, segmentKeys: ['beta-users'] });
        const file = join(dir, 'disabled.yml');
        writeFileSync(file, 'flags:\n  - {key: color, name: Color, enabled: false}\n');
        expect((await ensign('import', file, '--drop', '--db', a.url)).exitCode).toBeUndefined();
        // The server had the namespace compiled; only the relayed change makes it read the new data.
        await vi.waitFor(
          async () =>
            expect(await evaluate()).toMatchObject({ match: false, reason: 'FLAG_DISABLED_EVALUATION_REASON' }),
          {
            timeout: 10_000,
            interval: 50,
          },
        );
      } finally {
        await app.close();
      }
    },
  );

  it('writes a file that serialises the same documents it read', async () => {
    await ensign('import', fixturePath('v1.2.yml'), '--db', a.url);
    const { stdout } = await ensign('export', '--db', a.url);
    expect(stdout).toBe(await serializeFeatures(withStoredDefault(parseFeatures(fixture('v1.2.yml')))));
  });

  it('round-trips a version 1.4 file: namespace mappings, metadata, contains and notcontains, zero percentages', async () => {
    const imported = await ensign('import', fixturePath('v1.4.yml'), '--db', a.url);
    expect(imported.stderr).toBe('imported 3 flag(s) and 2 segment(s) into default, staging\n');
    const staging = (await ensign('export', '--namespaces', 'staging', '--db', a.url)).stdout;
    expect(staging.startsWith('version: "1.4"\nnamespace:\n  key: staging\n  name: Staging\n')).toBe(true);
    const { stdout } = await ensign('export', '--all-namespaces', '--db', a.url);
    expect(stdout).toBe(fixture('v1.4.yml'));
    // And through a second database: the export is the file again.
    const file = join(dir, 'v1.4.yml');
    writeFileSync(file, stdout);
    expect((await ensign('import', file, '--db', b.url)).exitCode).toBeUndefined();
    expect(await stateOf(b.url)).toEqual(await stateOf(a.url));
    expect((await ensign('export', '--all-namespaces', '--db', b.url)).stdout).toBe(fixture('v1.4.yml'));
  });

  it('--sort-by-key writes namespaces, flags, variants and segments in key order, the same each time', async () => {
    const file = join(dir, 'unsorted.yml');
    writeFileSync(
      file,
      [
        'namespace: {key: zeta, name: Zeta}',
        'flags:',
        '  - {key: b-flag, name: B, variants: [{key: z}, {key: a}, {key: M}]}',
        '  - {key: A-flag, name: A}',
        '  - {key: a_flag, name: a}',
        'segments:',
        '  - key: seg-b',
        '    name: B',
        '    constraints:',
        '      - {type: STRING_COMPARISON_TYPE, property: z, operator: contains, value: x}',
        '      - {type: ENTITY_ID_COMPARISON_TYPE, property: entityId, operator: notcontains, value: y}',
        '  - {key: seg-a, name: A}',
        '---',
        'namespace: {key: alpha, name: Alpha}',
        'flags:',
        '  - {key: y, name: Y}',
        '  - {key: x, name: X}',
        '',
      ].join('\n'),
    );
    expect((await ensign('import', file, '--db', a.url)).exitCode).toBeUndefined();
    const sorted = (await ensign('export', '--all-namespaces', '--sort-by-key', '--db', a.url)).stdout;
    expect((await ensign('export', '--all-namespaces', '--sort-by-key', '--db', a.url)).stdout).toBe(sorted);
    const documents = parseFeatures(sorted);
    expect(documents.map((d) => d.namespace.key)).toEqual(['alpha', 'default', 'zeta']);
    const zeta = documents[2];
    // Byte order, as Go's strings.Compare: upper case before `_` before lower case.
    expect(zeta.flags.map((f) => f.key)).toEqual(['A-flag', 'a_flag', 'b-flag']);
    expect(zeta.flags[2].variants.map((v) => v.key)).toEqual(['M', 'a', 'z']);
    expect(zeta.segments.map((s) => s.key)).toEqual(['seg-a', 'seg-b']);
    // Constraints keep their order, as in Flipt.
    expect(zeta.segments[1].constraints.map((c) => c.property)).toEqual(['z', 'entityId']);
    expect(documents[0].flags.map((f) => f.key)).toEqual(['x', 'y']);

    // Without the option: the order things were created in. Named namespaces keep the order given.
    const unsorted = parseFeatures((await ensign('export', '--all-namespaces', '--db', a.url)).stdout);
    expect(unsorted.map((d) => d.namespace.key)).toEqual(['default', 'zeta', 'alpha']);
    expect(unsorted[1].flags.map((f) => f.key)).toEqual(['b-flag', 'A-flag', 'a_flag']);
    const named = await ensign('export', '--namespaces', 'zeta,alpha', '--sort-by-key', '--db', a.url);
    expect(parseFeatures(named.stdout).map((d) => d.namespace.key)).toEqual(['zeta', 'alpha']);
    expect(parseFeatures(named.stdout)[0].flags.map((f) => f.key)).toEqual(['A-flag', 'a_flag', 'b-flag']);
  });
});
