import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml, parseAllDocuments } from 'yaml';
import { FormatError, parseFeatures, serializeFeatures } from '../../../server/flipt/declarative/format.js';

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/declarative/${name}`, import.meta.url), 'utf8');
const FIXTURES = [
  'v1.0.yml',
  'v1.1.yml',
  'v1.2.yml',
  'v1.3.yml',
  'v1.4.yml',
  'local/features.yml',
  'local/team/payments.features.yaml',
];

describe('features.yml format', () => {
  it.each(FIXTURES)('%s survives serialise then parse unchanged', async (name) => {
    const documents = parseFeatures(fixture(name), name);
    expect(documents.length).toBeGreaterThan(0);
    expect(parseFeatures(await serializeFeatures(documents))).toEqual(documents);
  });

  it('reads version 1.0: explicit ranks, native attachments as compact JSON, constraints', () => {
    const [document] = parseFeatures(fixture('v1.0.yml'));
    expect(document.namespace).toEqual({ key: 'default' });
    const color = document.flags[0];
    expect(color).toMatchObject({ key: 'color', name: 'Color', type: 'VARIANT_FLAG_TYPE', enabled: true });
    expect(color.variants[0].attachment).toBe('{"hex":"#ff0000","weights":[1,2.5,3]}');
    expect(color.variants[1]).toEqual({
      key: 'blue',
      name: 'Blue',
      description: 'The calm one',
      attachment: '',
      default: false,
    });
    expect(color.rules.map((r) => [r.segmentKeys, r.rank])).toEqual([
      [['beta-users'], 1],
      [['everyone'], 2],
    ]);
    expect(color.rules[0].distributions).toEqual([
      { variant: 'red', rollout: 30 },
      { variant: 'blue', rollout: 70 },
    ]);
    expect(document.flags[1]).toMatchObject({ key: 'disabled-flag', enabled: false, variants: [], rules: [] });
    const [beta, everyone] = document.segments;
    expect(beta.matchType).toBe('ANY_MATCH_TYPE');
    expect(beta.constraints[0]).toEqual({
      type: 'STRING_COMPARISON_TYPE',
      property: 'plan',
      operator: 'eq',
      value: 'beta',
      description: 'on the beta plan',
    });
    expect(beta.constraints[2]).toMatchObject({ type: 'BOOLEAN_COMPARISON_TYPE', operator: 'true', value: '' });
    expect(everyone.constraints).toEqual([]);
  });

  it('reads version 1.1: flag types, rollouts and ranks implied by position', () => {
    const [document] = parseFeatures(fixture('v1.1.yml'));
    const [checkout, banner] = document.flags;
    expect(checkout.type).toBe('BOOLEAN_FLAG_TYPE');
    expect(checkout.rollouts).toEqual([
      {
        description: 'staff always',
        segment: { segmentKeys: ['staff'], segmentOperator: 'OR_SEGMENT_OPERATOR', value: true },
      },
      { description: '', threshold: { percentage: 25.5, value: true } },
      { description: '', threshold: { percentage: 50, value: false } },
    ]);
    expect(banner.rules.map((r) => r.rank)).toEqual([1, 2]);
    expect(banner.variants.map((v) => [v.key, v.attachment])).toEqual([
      ['on', 'true'],
      ['off', '["a","b"]'],
    ]);
  });

  it('reads version 1.2: rules and rollouts over several segments with an operator', () => {
    const [document] = parseFeatures(fixture('v1.2.yml'));
    const [search, darkMode] = document.flags;
    expect(search.rules[0]).toMatchObject({
      segmentKeys: ['internal', 'mobile'],
      segmentOperator: 'AND_SEGMENT_OPERATOR',
    });
    expect(search.rules[1]).toMatchObject({ segmentOperator: 'OR_SEGMENT_OPERATOR' });
    expect(darkMode.rollouts[0]).toEqual({
      description: '',
      segment: { segmentKeys: ['internal', 'mobile'], segmentOperator: 'AND_SEGMENT_OPERATOR', value: true },
    });
    expect(document.segments[1].matchType).toBe('ALL_MATCH_TYPE');
  });

  it('reads version 1.3: metadata, default variants and a stream of namespaces', () => {
    const documents = parseFeatures(fixture('v1.3.yml'));
    expect(documents.map((d) => d.namespace)).toEqual([
      { key: 'default' },
      { key: 'production', name: 'Production', description: 'Live traffic' },
      { key: 'staging' },
    ]);
    const pricing = documents[0].flags[0];
    expect(pricing.metadata).toEqual({ owner: 'growth', ticket: 123, experimental: true, ratio: 0.5 });
    expect(pricing.variants.map((v) => v.default)).toEqual([false, true]);
    expect(pricing.variants[0].attachment).toBe(
      '{"prices":{"basic":10,"pro":25},"currency":"EUR","tags":["a","b c",null]}',
    );
    expect(pricing.variants[1].attachment).toBe('"just a string"');
    expect(documents[1].flags[0].variants[0].default).toBe(true);
    expect(documents[2].segments[0]).toMatchObject({ key: 'testers', matchType: 'ANY_MATCH_TYPE' });
  });

  it('writes like flipt export: version 1.4 once, namespaces as mappings, no ranks, native attachments, zero values omitted but enabled', async () => {
    const text = await serializeFeatures(parseFeatures(fixture('v1.3.yml')));
    const written = parseAllDocuments(text).map((d) => d.toJS());
    expect(written[0].version).toBe('1.4');
    expect(written[1]).not.toHaveProperty('version');
    expect(text.startsWith('version: "1.4"\nnamespace:\n  key: default\n')).toBe(true);
    expect(written[0].namespace).toEqual({ key: 'default' });
    expect(written[1].namespace).toEqual({ key: 'production', name: 'Production', description: 'Live traffic' });
    const pricing = written[0].flags[0];
    expect(pricing.rules[0]).toEqual({
      segment: 'europe',
      distributions: [
        { variant: 'monthly', rollout: 0 },
        { variant: 'yearly', rollout: 100 },
      ],
    });
    expect(pricing.variants[0].attachment).toEqual({
      prices: { basic: 10, pro: 25 },
      currency: 'EUR',
      tags: ['a', 'b c', null],
    });
    expect(pricing.variants[1]).toEqual({ default: true, key: 'yearly', name: 'Yearly', attachment: 'just a string' });
    expect(written[1].flags[0]).toEqual({
      key: 'pricing',
      name: 'Pricing',
      type: 'VARIANT_FLAG_TYPE',
      enabled: false,
      variants: [{ default: true, key: 'monthly' }],
    });
    expect(written[2]).toEqual({
      namespace: { key: 'staging' },
      segments: [{ key: 'testers', name: 'Testers', match_type: 'ANY_MATCH_TYPE' }],
    });

    const rollouts = parseYaml(await serializeFeatures(parseFeatures(fixture('v1.2.yml')))).flags[1].rollouts;
    expect(rollouts).toEqual([
      { segment: { keys: ['internal', 'mobile'], operator: 'AND_SEGMENT_OPERATOR', value: true } },
      { segment: { keys: ['internal', 'mobile'] } },
    ]);
  });

  it('reads version 1.4: a namespace mapping, metadata, contains and notcontains on strings and entity ids', () => {
    const [document, staging] = parseFeatures(fixture('v1.4.yml'));
    expect(document.namespace).toEqual({ key: 'default', name: 'Default', description: 'Default namespace' });
    expect(staging.namespace).toEqual({ key: 'staging', name: 'Staging', description: 'Pre-production' });
    expect(document.flags[0].metadata).toEqual({ owner: 'payments', ticket: 4018, beta: true, weight: 0.25 });
    expect(document.segments.flatMap((s) => s.constraints.map((c) => [c.type, c.operator]))).toEqual([
      ['STRING_COMPARISON_TYPE', 'contains'],
      ['STRING_COMPARISON_TYPE', 'notcontains'],
      ['ENTITY_ID_COMPARISON_TYPE', 'notcontains'],
      ['ENTITY_ID_COMPARISON_TYPE', 'contains'],
    ]);
    // Either namespace form is read whatever the version, as Flipt reads it.
    const old = parseFeatures(
      'version: "1.0"\nnamespace: {key: ns, name: NS, description: D}\n---\nnamespace: other\n',
    );
    expect(old.map((d) => d.namespace)).toEqual([{ key: 'ns', name: 'NS', description: 'D' }, { key: 'other' }]);
  });

  it('writes threshold percentages and distribution rollouts of 0, as Flipt v1.61 does', async () => {
    const text = await serializeFeatures(parseFeatures(fixture('v1.4.yml')));
    const [written] = parseAllDocuments(text).map((d) => d.toJS());
    expect(written.flags[1].rollouts.slice(1)).toEqual([
      { threshold: { percentage: 0, value: true } },
      { threshold: { percentage: 0 } },
    ]);
    expect(written.flags[0].rules[0].distributions[0]).toEqual({ variant: 'classic', rollout: 0 });
    expect(text).toBe(fixture('v1.4.yml'));
  });

  it('quotes strings that a YAML 1.1 reader (Flipt) would take for booleans or dates', async () => {
    const source =
      'flags:\n  - key: f\n    name: "yes"\n    variants: [{key: "on", attachment: {when: "2024-01-01"}}]\n';
    const text = await serializeFeatures(parseFeatures(source));
    expect(text).toContain('name: "yes"');
    expect(text).toContain('key: "on"');
    expect(text).toContain('when: "2024-01-01"');
    expect(parseFeatures(text)).toEqual(parseFeatures(source));
  });

  it('treats a missing version as the latest and an empty stream as no documents', () => {
    expect(
      parseFeatures('namespace: x\nflags:\n  - key: f\n    name: F\n    metadata: {a: 1}\n')[0].flags[0].metadata,
    ).toEqual({ a: 1 });
    expect(parseFeatures('')).toEqual([]);
    expect(parseFeatures('---\n---\n')).toEqual([]);
  });

  const bad: [string, string, RegExp][] = [
    ['invalid YAML', 'flags: [\n', /^f: document 1: invalid YAML: /],
    ['a document that is not a mapping', '- a\n- b\n', /^f: document 1: must be a mapping$/],
    ['an unknown top-level key', 'flagz: []\n', /^f: document 1: unknown key "flagz"$/],
    [
      'an unsupported version',
      'version: "2.0"\n',
      /^f: document 1, version: unsupported version "2\.0" \(expected one of 1\.0, 1\.1, 1\.2, 1\.3, 1\.4\)$/,
    ],
    [
      'a flag without a name',
      'flags:\n  - key: f\n',
      /^f: document 1 \(namespace "default"\), flag "f", name: is required$/,
    ],
    ['a flag without a key', 'flags:\n  - name: F\n', /flags\[0\], key: is required$/],
    [
      'an unknown flag type',
      'flags:\n  - {key: f, name: F, type: MAYBE}\n',
      /flag "f", type: must be one of VARIANT_FLAG_TYPE, BOOLEAN_FLAG_TYPE \(got "MAYBE"\)$/,
    ],
    [
      'an unknown variant in a distribution',
      'flags:\n  - key: f\n    name: F\n    variants: [{key: a}]\n    rules:\n      - segment: s\n        distributions: [{variant: b, rollout: 10}]\n',
      /flag "f", rules\[0\]\.distributions\[0\]\.variant: unknown variant "b"$/,
    ],
    [
      'a rollout over 100',
      'flags:\n  - key: f\n    name: F\n    rules:\n      - segment: s\n        distributions: [{variant: a, rollout: 101}]\n',
      /distributions\[0\], rollout: must be within \[0, 100\]$/,
    ],
    [
      'a rollout with both kinds',
      'flags:\n  - key: f\n    name: F\n    rollouts:\n      - {segment: {key: s}, threshold: {percentage: 5}}\n',
      /rollouts\[0\]: needs exactly one of "segment" or "threshold"$/,
    ],
    ['a duplicate flag', 'flags:\n  - {key: f, name: F}\n  - {key: f, name: G}\n', /flag "f" appears twice$/],
    ['a duplicate mapping key', 'flags: []\nflags: []\n', /invalid YAML: Map keys must be unique/],
    [
      'a flag type in version 1.0',
      'version: "1.0"\nflags:\n  - {key: f, name: F, type: BOOLEAN_FLAG_TYPE}\n',
      /flag "f", type: a flag type needs version 1\.1 or later \(the file declares 1\.0\)$/,
    ],
    [
      'a rule without rank in version 1.0',
      'version: "1.0"\nflags:\n  - key: f\n    name: F\n    rules: [{segment: s}]\n',
      /rules\[0\], rank: is required in version 1\.0$/,
    ],
    [
      'several rollout segments in version 1.1',
      'version: "1.1"\nflags:\n  - key: f\n    name: F\n    rollouts: [{segment: {keys: [a, b]}}]\n',
      /rollouts\[0\], segment, keys: a rollout with several segments needs version 1\.2 or later/,
    ],
    [
      'rollouts in version 1.0',
      'version: "1.0"\nflags:\n  - key: f\n    name: F\n    rollouts: [{threshold: {percentage: 5}}]\n',
      /flag "f", rollouts: a rollout needs version 1\.1 or later \(the file declares 1\.0\)$/,
    ],
    [
      'a default variant in version 1.2',
      'version: "1.2"\nflags:\n  - key: f\n    name: F\n    variants: [{key: a, default: true}]\n',
      /variants\[0\], default: a default variant needs version 1\.3 or later/,
    ],
    [
      'an unknown match type',
      'segments:\n  - {key: s, name: S, match_type: SOME}\n',
      /segment "s", match_type: must be one of ALL_MATCH_TYPE, ANY_MATCH_TYPE/,
    ],
    [
      'a constraint without property',
      'segments:\n  - key: s\n    name: S\n    constraints: [{type: STRING_COMPARISON_TYPE, operator: eq}]\n',
      /segment "s", constraints\[0\], property: is required$/,
    ],
  ];
  it.each(bad)('rejects %s with a message naming the place', (_what, source, message) => {
    let error: unknown;
    try {
      parseFeatures(source, 'f');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(FormatError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('\n');
  });

  it('takes the version from the first document only', () => {
    const source =
      'version: "1.0"\nflags: []\n---\nversion: "1.3"\nflags:\n  - {key: f, name: F, type: BOOLEAN_FLAG_TYPE}\n';
    expect(() => parseFeatures(source, 'f')).toThrow(
      /document 2 \(namespace "default"\), flag "f", type: a flag type needs version 1\.1/,
    );
  });

  it('reads what Flipt checks only when used, and what later Flipt versions write', () => {
    const old =
      'version: "1.0"\nflags:\n  - key: f\n    name: F\n    metadata: {a: 1}\n    rollouts: []\n    variants: [{key: v, default: false}]\n    rules: [{rank: 1, segment: {keys: [a, b]}}]\n';
    expect(parseFeatures(old)[0].flags[0]).toMatchObject({ metadata: { a: 1 }, rules: [{ segmentKeys: ['a', 'b'] }] });
    const newer =
      'version: "1.4"\nnamespace: {key: ns, name: NS}\nflags:\n  - key: f\n    name: F\n    rollouts: [{id: "1", threshold: {percentage: 5}}]\nsegments:\n  - key: s\n    name: S\n    constraints: [{id: "1", type: STRING_COMPARISON_TYPE, property: p, operator: eq, value: x}]\n';
    const [document] = parseFeatures(newer);
    expect(document.namespace).toEqual({ key: 'ns', name: 'NS' });
    expect(document.flags[0].rollouts).toEqual([{ description: '', threshold: { percentage: 5, value: false } }]);
    expect(document.segments[0].constraints[0]).toEqual({
      type: 'STRING_COMPARISON_TYPE',
      property: 'p',
      operator: 'eq',
      value: 'x',
      description: '',
    });
  });
});
