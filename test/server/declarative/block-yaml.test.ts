import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { type BlockDocument, loadBlockDocuments } from '../../../server/flipt/declarative/block-yaml.js';
import { generateFeatures } from '../../../bench/support/features.js';
import { fixture } from './support.js';

/** What `yaml`, the parser the fast loader stands in for, reads from the text. */
const withYaml = (text: string) => parseAllDocuments(text, { uniqueKeys: true }).map((document) => document.toJS());

/** A document of the fast loader with its sequences read, chunk by chunk, back into it. */
const materialised = ({ rest, sections }: BlockDocument) =>
  sections.size
    ? { ...(rest as object), ...Object.fromEntries([...sections].map(([key, chunks]) => [key, [...chunks].flat()])) }
    : rest;

const SAME_AS_YAML: Record<string, string> = {
  'fixture v1.0': fixture('v1.0.yml'),
  'fixture v1.1': fixture('v1.1.yml'),
  'fixture v1.2': fixture('v1.2.yml'),
  'fixture v1.3': fixture('v1.3.yml'),
  'generated, 2,500 flags (three chunks)': generateFeatures(2500),
  'items at column 0, comments and blank lines between them, CRLF line ends': [
    '# features',
    'namespace: default',
    'flags:',
    '- key: a',
    '  name: A',
    '',
    '# between items',
    '- key: b',
    '  name: "B: quoted, with # no comment"',
    '  description: |',
    '    line one',
    '    - not an item',
    'segments:',
    '  - key: s',
    '    constraints: [{ property: age, operator: gte, value: "18" }]',
  ].join('\r\n'),
  'several documents, a leading marker, scalars of the core schema': [
    '# comments before the first marker',
    '---',
    'version: "1.2"',
    'namespace: one',
    'flags:',
    '  - { key: a, name: A, enabled: true }',
    '  - key: b',
    '    name: 0x1F',
    '    enabled: no',
    '    metadata: { n: 1.5e3, t: 2001-12-14, nothing: ~ }',
    '---',
    'namespace: two',
    'flags: []',
    'segments:',
    '...',
    '---',
    '# an empty document',
  ].join('\n'),
};

describe('the block-YAML fast loader', () => {
  for (const [name, text] of Object.entries(SAME_AS_YAML)) {
    it(`reads what yaml reads: ${name}`, () => {
      const fast = loadBlockDocuments(text);
      expect(fast).toBeDefined();
      expect(fast!.map((document) => materialised(document) ?? null)).toEqual(
        withYaml(text).map((value) => value ?? null),
      );
    });
  }

  it.each([
    ['an anchor and an alias', 'flags:\n  - &f { key: a, name: A }\n  - *f\n'],
    ['a tag', 'flags:\n  - key: !!str 1\n    name: A\n'],
    ['a directive', '%YAML 1.2\n---\nflags: []\n'],
    ['a duplicate key', 'namespace: a\nnamespace: b\n'],
    ['a syntax error outside the sequences', 'namespace: [unclosed\nflags:\n  - key: a\n'],
    ['a line left of the items inside a sequence', 'flags:\n    - key: a\n  name: A\n'],
  ])('leaves %s to yaml', (_, text) => {
    expect(loadBlockDocuments(text)).toBeUndefined();
  });

  it('reads a chunk only when asked, and throws a syntax error inside its items then', () => {
    const text = `${generateFeatures(2500).replace('name: Flag 2400', 'name: [unclosed')}`;
    const [document] = loadBlockDocuments(text)!;
    const chunks = document.sections.get('flags')![Symbol.iterator]();
    expect(chunks.next().value).toHaveLength(1000);
    expect(chunks.next().value).toHaveLength(1000);
    expect(() => chunks.next()).toThrow(/unexpected end|flow collection|missed comma/);
  });
});
