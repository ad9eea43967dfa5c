import { parseAllDocuments, stringify } from 'yaml';
import { loadBlockDocuments } from './block-yaml.js';
import {
  COMPARISON_TYPES,
  DEFAULT_NAMESPACE,
  FLAG_TYPES,
  MATCH_TYPES,
  SEGMENT_OPERATORS,
  type ComparisonType,
  type FlagType,
  type MatchType,
  type SegmentOperator,
} from '../../../domain/flipt/types.js';

/**
 * Flipt's declarative format (`features.yml`): a YAML stream with one document per
 * namespace. Parsing checks the shape and the version gates and normalises every document into the
 * model below; serialising writes the model back the way `flipt export` (v1.61) does: version 1.4 on
 * the first document, the namespace as a mapping `{key, name, description}`, zero values omitted
 * except `enabled`, a distribution's `rollout` and a threshold's `percentage`, ranks implied by list
 * order, attachments as native YAML.
 *
 * A namespace is read as a key string or as that mapping, whatever the version (as Flipt reads it).
 */

/** The versions read; an `id` on a rollout or a constraint is read and ignored. */
export const VERSIONS = ['1.0', '1.1', '1.2', '1.3', '1.4'] as const;
export type Version = (typeof VERSIONS)[number];
/** What export writes, and what a file without a version is read as: the newest, as in Flipt v1.61. */
export const LATEST_VERSION: Version = '1.4';

export interface FeaturesDocument {
  namespace: { key: string; name?: string; description?: string };
  flags: FlagDocument[];
  segments: SegmentDocument[];
}

export interface FlagDocument {
  key: string;
  name: string;
  type: FlagType;
  description: string;
  enabled: boolean;
  metadata?: Record<string, unknown>;
  variants: VariantDocument[];
  rules: RuleDocument[];
  rollouts: RolloutDocument[];
}

export interface VariantDocument {
  key: string;
  name: string;
  description: string;
  /** Compact JSON text, or "" when the variant has no attachment. */
  attachment: string;
  default: boolean;
}

export interface SegmentReference {
  segmentKeys: string[];
  segmentOperator: SegmentOperator;
}

export interface RuleDocument extends SegmentReference {
  rank: number;
  distributions: { variant: string; rollout: number }[];
}

export type RolloutDocument =
  | { description: string; threshold: { percentage: number; value: boolean } }
  | { description: string; segment: SegmentReference & { value: boolean } };

export interface SegmentDocument {
  key: string;
  name: string;
  description: string;
  matchType: MatchType;
  constraints: ConstraintDocument[];
}

export interface ConstraintDocument {
  type: ComparisonType;
  property: string;
  operator: string;
  value: string;
  description: string;
}

/** A problem in a features file, worded as one line naming the document and the field. */
export class FormatError extends Error {
  override name = 'FormatError';
}

type Mapping = Record<string, unknown>;

/** Where a value sits, for messages: `document 1 (namespace "default"), flag "f", variants[0].key`. */
class Place {
  constructor(private readonly parts: string[]) {}
  at(part: string): Place {
    return new Place([...this.parts, part]);
  }
  fail(problem: string): never {
    throw new FormatError(`${this.parts.join(', ')}: ${problem}`);
  }
}

function isMapping(value: unknown): value is Mapping {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function mapping(value: unknown, place: Place, allowed: readonly string[]): Mapping {
  if (!isMapping(value)) place.fail('must be a mapping');
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) place.fail(`unknown key "${key}"`);
  }
  return value;
}

function list(value: unknown, place: Place): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) place.fail('must be a list');
  return value;
}

/** A string field; YAML scalars that read as numbers or booleans are taken as their text. */
function text(value: unknown, place: Place, required = false): string {
  if (value === undefined || value === null) {
    if (required) place.fail('is required');
    return '';
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value !== 'string') place.fail('must be a string');
  if (required && value === '') place.fail('must not be empty');
  return value;
}

function flag(value: unknown, place: Place): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') place.fail('must be true or false');
  return value;
}

function number(value: unknown, place: Place): number {
  if (value === undefined || value === null) return 0;
  const parsed = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof parsed !== 'number' || !Number.isFinite(parsed)) place.fail('must be a number');
  return parsed;
}

function oneOf<T extends string>(value: unknown, names: readonly T[], fallback: T, place: Place): T {
  if (value === undefined || value === null || value === '') return fallback;
  if (typeof value !== 'string' || !names.includes(value as T)) {
    place.fail(`must be one of ${names.join(', ')} (got ${JSON.stringify(value)})`);
  }
  return value as T;
}

function atLeast(version: Version, needed: Version, place: Place, feature: string): void {
  if (VERSIONS.indexOf(version) < VERSIONS.indexOf(needed)) {
    place.fail(`${feature} needs version ${needed} or later (the file declares ${version})`);
  }
}

function parseVersion(value: unknown, place: Place): Version {
  if (value === undefined || value === null) return LATEST_VERSION;
  // An unquoted `version: 1.0` reads as the number 1.
  const written = typeof value === 'number' ? value.toFixed(1) : value;
  if (typeof written !== 'string' || !VERSIONS.includes(written as Version)) {
    place.fail(`unsupported version ${JSON.stringify(value)} (expected one of ${VERSIONS.join(', ')})`);
  }
  return written as Version;
}

/**
 * Parses a YAML (or JSON) stream of features documents. Only the first document's version counts,
 * as in Flipt; empty documents are skipped. Throws a FormatError naming the first problem.
 */
export function parseFeatures(source: string, fileName = 'features'): FeaturesDocument[] {
  return streamFeatures(source, fileName).map((document) => {
    const flags = [...document.flagChunks()].flat();
    const segments = [...document.segmentChunks()].flat();
    return { namespace: document.namespace, flags, segments };
  });
}

/**
 * A features document read as it is used: its namespace at once, its segments and flags a chunk at
 * a time (each item checked as it is read, keys unique within the document), so an import of a
 * large file holds one chunk of parsed entities rather than the whole file's.
 */
export interface FeaturesStream {
  namespace: FeaturesDocument['namespace'];
  segmentChunks(): Iterable<SegmentDocument[]>;
  flagChunks(): Iterable<FlagDocument[]>;
}

/**
 * The documents of a features file, with the checks of `parseFeatures`: the version and namespace
 * of every document at once, each chunk of segments or flags when it is read (a FormatError then,
 * naming the item).
 */
export function streamFeatures(source: string, fileName = 'features'): FeaturesStream[] {
  const documents: FeaturesStream[] = [];
  let version: Version | undefined;
  const values =
    loadBlockDocuments(source) ??
    loadYaml(source, fileName).map((rest) => ({ rest, sections: new Map<string, Iterable<unknown[]>>() }));
  values.forEach(({ rest, sections }, index) => {
    const label = `${fileName}: document ${index + 1}`;
    const place = new Place([label]);
    if ((rest === null || rest === undefined) && sections.size === 0) return;
    const top = mapping(rest, place, ['version', 'namespace', 'flags', 'segments']);
    version ??= parseVersion(top.version, place.at('version'));
    const documentVersion = version;
    const namespace = parseNamespace(top.namespace, new Place([label, 'namespace']));
    const at = new Place([`${label} (namespace "${namespace.key}")`]);
    // The items of a list: the fast loader's chunks, or the one list `yaml` parsed.
    const chunksOf = (key: 'flags' | 'segments'): Iterable<unknown[]> =>
      sections.get(key) ?? [list(top[key], at.at(key))];
    const read = (chunks: Iterable<unknown[]>) => loadedChunks(chunks, source, fileName);
    documents.push({
      namespace,
      flagChunks: () =>
        checkedChunks(
          read(chunksOf('flags')),
          (item, i) => parseFlag(item, documentVersion, at, i),
          (key) => at.fail(`flag "${key}" appears twice`),
        ),
      segmentChunks: () =>
        checkedChunks(
          read(chunksOf('segments')),
          (item, i) => parseSegment(item, at, i),
          (key) => at.fail(`segment "${key}" appears twice`),
        ),
    });
  });
  return documents;
}

/** Parses each chunk's items (numbered across chunks), refusing a key seen before in the document. */
function* checkedChunks<T extends { key: string }>(
  chunks: Iterable<unknown[]>,
  parse: (item: unknown, index: number) => T,
  onDuplicate: (key: string) => never,
): Generator<T[]> {
  const seen = new Set<string>();
  let index = 0;
  for (const chunk of chunks) {
    const parsed = chunk.map((item) => parse(item, index++));
    for (const { key } of parsed) {
      if (seen.has(key)) onDuplicate(key);
      seen.add(key);
    }
    yield parsed;
  }
}

/**
 * The chunks; one that does not load (the fast loader finds a syntax error inside an item only when
 * it reads it) is worded as `yaml` words the error.
 */
function* loadedChunks(chunks: Iterable<unknown[]>, source: string, fileName: string): Generator<unknown[]> {
  const iterator = chunks[Symbol.iterator]();
  for (;;) {
    let next: IteratorResult<unknown[]>;
    try {
      next = iterator.next();
    } catch (error) {
      loadYaml(source, fileName);
      throw new FormatError(`${fileName}: invalid YAML: ${(error as Error).message.split('\n')[0]}`);
    }
    if (next.done) return;
    yield next.value;
  }
}

/** Aliases a document may resolve: enough for shared constraint lists, far too few for a billion laughs. */
const MAX_ALIAS_COUNT = 100;

/** Every document of the stream with \`yaml\` (aliases limited), naming the first syntax error. */
function loadYaml(source: string, fileName: string): unknown[] {
  return parseAllDocuments(source, { uniqueKeys: true }).map((yamlDocument, index) => {
    const place = new Place([`${fileName}: document ${index + 1}`]);
    const error = yamlDocument.errors[0];
    if (error) place.fail(`invalid YAML: ${error.message.split('\n')[0]}`);
    try {
      return yamlDocument.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) as unknown;
    } catch (error) {
      // `yaml` refuses an alias bomb (or an alias to a missing anchor) with a ReferenceError.
      if (error instanceof ReferenceError) place.fail(`invalid YAML: ${error.message}`);
      throw error;
    }
  });
}

function unique(keys: string[], onDuplicate: (key: string) => never): void {
  const seen = new Set<string>();
  for (const key of keys) {
    if (seen.has(key)) onDuplicate(key);
    seen.add(key);
  }
}

function parseNamespace(value: unknown, place: Place): FeaturesDocument['namespace'] {
  if (value === undefined || value === null || value === '') return { key: DEFAULT_NAMESPACE };
  if (!isMapping(value)) return { key: text(value, place, true) };
  const fields = mapping(value, place, ['key', 'name', 'description']);
  const namespace: FeaturesDocument['namespace'] = { key: text(fields.key, place.at('key'), true) };
  if (fields.name !== undefined) namespace.name = text(fields.name, place.at('name'));
  if (fields.description !== undefined) namespace.description = text(fields.description, place.at('description'));
  return namespace;
}

const FLAG_KEYS = ['key', 'name', 'type', 'description', 'enabled', 'metadata', 'variants', 'rules', 'rollouts'];

function parseFlag(value: unknown, version: Version, parent: Place, index: number): FlagDocument {
  const at = parent.at(`flags[${index}]`);
  const fields = mapping(value, at, FLAG_KEYS);
  const key = text(fields.key, at.at('key'), true);
  const place = parent.at(`flag "${key}"`);
  // The gates apply only when a feature is used, as in Flipt (an empty `rollouts: []` passes).
  if (fields.type) atLeast(version, '1.1', place.at('type'), 'a flag type');
  if (Array.isArray(fields.rollouts) && fields.rollouts.length)
    atLeast(version, '1.1', place.at('rollouts'), 'a rollout');
  const result: FlagDocument = {
    key,
    name: text(fields.name, place.at('name'), true),
    type: oneOf(fields.type, FLAG_TYPES, 'VARIANT_FLAG_TYPE', place.at('type')),
    description: text(fields.description, place.at('description')),
    enabled: flag(fields.enabled, place.at('enabled')),
    variants: list(fields.variants, place.at('variants')).map((item, i) =>
      parseVariant(item, version, place.at(`variants[${i}]`)),
    ),
    rules: list(fields.rules, place.at('rules')).map((item, i) => parseRule(item, version, place.at(`rules[${i}]`), i)),
    rollouts: list(fields.rollouts, place.at('rollouts')).map((item, i) =>
      parseRollout(item, version, place.at(`rollouts[${i}]`)),
    ),
  };
  if (fields.metadata !== undefined && fields.metadata !== null) {
    result.metadata = isMapping(fields.metadata) ? fields.metadata : place.at('metadata').fail('must be a mapping');
  }
  unique(
    result.variants.map((v) => v.key),
    (variantKey) => place.fail(`variant "${variantKey}" appears twice`),
  );
  const variantKeys = new Set(result.variants.map((v) => v.key));
  result.rules.forEach((rule, i) => {
    rule.distributions.forEach((distribution, j) => {
      if (!variantKeys.has(distribution.variant)) {
        place.at(`rules[${i}].distributions[${j}].variant`).fail(`unknown variant "${distribution.variant}"`);
      }
    });
  });
  return result;
}

function parseVariant(value: unknown, version: Version, place: Place): VariantDocument {
  const fields = mapping(value, place, ['key', 'name', 'description', 'attachment', 'default']);
  if (fields.default === true) atLeast(version, '1.3', place.at('default'), 'a default variant');
  const attachment = fields.attachment;
  return {
    key: text(fields.key, place.at('key'), true),
    name: text(fields.name, place.at('name')),
    description: text(fields.description, place.at('description')),
    attachment: attachment === undefined || attachment === null ? '' : JSON.stringify(attachment),
    default: flag(fields.default, place.at('default')),
  };
}

function parseRule(value: unknown, version: Version, place: Place, index: number): RuleDocument {
  const fields = mapping(value, place, ['segment', 'rank', 'distributions']);
  let rank = number(fields.rank, place.at('rank'));
  if (rank === 0) {
    // From version 1.1 a rule without a rank takes its position in the list.
    if (version === '1.0') place.at('rank').fail('is required in version 1.0');
    rank = index + 1;
  }
  if (!Number.isInteger(rank) || rank < 1) place.at('rank').fail('must be a whole number greater than 0');
  const distributions = list(fields.distributions, place.at('distributions')).map((item, i) => {
    const at = place.at(`distributions[${i}]`);
    const distribution = mapping(item, at, ['variant', 'rollout']);
    const rollout = number(distribution.rollout, at.at('rollout'));
    if (rollout < 0 || rollout > 100) at.at('rollout').fail('must be within [0, 100]');
    return { variant: text(distribution.variant, at.at('variant'), true), rollout };
  });
  return { ...parseRuleSegment(fields.segment, place.at('segment')), rank, distributions };
}

function parseRuleSegment(value: unknown, place: Place): SegmentReference {
  if (!isMapping(value)) return { segmentKeys: [text(value, place, true)], segmentOperator: 'OR_SEGMENT_OPERATOR' };
  const fields = mapping(value, place, ['keys', 'operator']);
  return {
    segmentKeys: segmentKeys(fields.keys, place.at('keys')),
    segmentOperator: oneOf(fields.operator, SEGMENT_OPERATORS, 'OR_SEGMENT_OPERATOR', place.at('operator')),
  };
}

function segmentKeys(value: unknown, place: Place): string[] {
  const keys = list(value, place).map((key, i) => text(key, place.at(`[${i}]`), true));
  if (keys.length === 0) place.fail('must name at least one segment');
  return [...new Set(keys)];
}

function parseRollout(value: unknown, version: Version, place: Place): RolloutDocument {
  const fields = mapping(value, place, ['id', 'description', 'segment', 'threshold']);
  const description = text(fields.description, place.at('description'));
  const hasSegment = fields.segment !== undefined && fields.segment !== null;
  const hasThreshold = fields.threshold !== undefined && fields.threshold !== null;
  if (hasSegment === hasThreshold) place.fail('needs exactly one of "segment" or "threshold"');
  if (hasThreshold) {
    const at = place.at('threshold');
    const threshold = mapping(fields.threshold, at, ['percentage', 'value']);
    const percentage = number(threshold.percentage, at.at('percentage'));
    if (percentage < 0 || percentage > 100) at.at('percentage').fail('must be within [0, 100]');
    return { description, threshold: { percentage, value: flag(threshold.value, at.at('value')) } };
  }
  const at = place.at('segment');
  const segment = mapping(fields.segment, at, ['key', 'keys', 'operator', 'value']);
  const hasKey = segment.key !== undefined && segment.key !== null && segment.key !== '';
  const hasKeys = segment.keys !== undefined && segment.keys !== null;
  if (hasKey === hasKeys) at.fail('needs exactly one of "key" or "keys"');
  if (hasKeys) atLeast(version, '1.2', at.at('keys'), 'a rollout with several segments');
  const keys = hasKeys ? segmentKeys(segment.keys, at.at('keys')) : [text(segment.key, at.at('key'), true)];
  return {
    description,
    segment: {
      segmentKeys: keys,
      segmentOperator: oneOf(segment.operator, SEGMENT_OPERATORS, 'OR_SEGMENT_OPERATOR', at.at('operator')),
      value: flag(segment.value, at.at('value')),
    },
  };
}

function parseSegment(value: unknown, parent: Place, index: number): SegmentDocument {
  const at = parent.at(`segments[${index}]`);
  const fields = mapping(value, at, ['key', 'name', 'description', 'match_type', 'constraints']);
  const key = text(fields.key, at.at('key'), true);
  const place = parent.at(`segment "${key}"`);
  return {
    key,
    name: text(fields.name, place.at('name'), true),
    description: text(fields.description, place.at('description')),
    matchType: oneOf(fields.match_type, MATCH_TYPES, 'ALL_MATCH_TYPE', place.at('match_type')),
    constraints: list(fields.constraints, place.at('constraints')).map((item, i) => {
      const c = place.at(`constraints[${i}]`);
      const constraint = mapping(item, c, ['id', 'type', 'property', 'operator', 'value', 'description']);
      return {
        type: oneOf(constraint.type, COMPARISON_TYPES, 'UNKNOWN_COMPARISON_TYPE', c.at('type')),
        property: text(constraint.property, c.at('property'), true),
        operator: text(constraint.operator, c.at('operator'), true),
        value: text(constraint.value, c.at('value')),
        description: text(constraint.description, c.at('description')),
      };
    }),
  };
}

/** A document to write; its flags may come a page at a time (an export reads them so). */
export interface PagedDocument {
  namespace: FeaturesDocument['namespace'];
  segments: SegmentDocument[];
  flagPages: Iterable<FlagDocument[]> | AsyncIterable<FlagDocument[]>;
}

/**
 * Writes documents as a YAML stream; the version goes in the first document only, as Flipt writes it.
 * Strings that YAML 1.1 would read as something else (`on`, `yes`, dates) are quoted, so Flipt's own
 * YAML 1.1 reader gets strings back too.
 */
export async function serializeFeatures(documents: FeaturesDocument[]): Promise<string> {
  let text = '';
  const paged = documents.map(({ namespace, segments, flags }) => ({ namespace, segments, flagPages: [flags] }));
  for await (const piece of featuresYaml(paged)) text += piece;
  return text;
}

/**
 * The YAML of `serializeFeatures`, a piece at a time: each document's head, `flags:` followed by the
 * items of each page, its segments. Together they are the YAML of the whole document: an item's
 * YAML does not depend on its neighbours.
 */
export async function* featuresYaml(documents: PagedDocument[]): AsyncGenerator<string> {
  for (const [index, document] of documents.entries()) {
    if (index > 0) yield DOCUMENT_SEPARATOR;
    yield documentHeadYaml(document.namespace, index === 0);
    let first = true;
    for await (const page of document.flagPages) {
      if (page.length === 0) continue;
      yield `${first ? 'flags:\n' : ''}${flagsYaml(page)}`;
      first = false;
    }
    yield segmentsYaml(document.segments);
  }
}

const DOCUMENT_SEPARATOR = '---\n';
const YAML_OPTIONS = { lineWidth: 0, aliasDuplicateObjects: false, version: '1.1' } as const;

/** `version` (first document only) and `namespace`, always a mapping (empty name or description left out). */
function documentHeadYaml({ key, name, description }: FeaturesDocument['namespace'], first: boolean): string {
  const out: Mapping = {};
  if (first) out.version = LATEST_VERSION;
  out.namespace = omitEmpty({ key, name, description });
  return stringify(out, YAML_OPTIONS);
}

/** The items of a `flags:` list (the key itself not included). */
function flagsYaml(flags: FlagDocument[]): string {
  return itemsOf('flags', flags.map(flagToYaml));
}

/** A document's `segments:` list, or nothing when it has none. */
function segmentsYaml(segments: SegmentDocument[]): string {
  return segments.length ? `segments:\n${itemsOf('segments', segments.map(segmentToYaml))}` : '';
}

/** A list's items as YAML writes them under their key in a document. */
const itemsOf = (key: string, items: Mapping[]) => stringify({ [key]: items }, YAML_OPTIONS).slice(key.length + 2);

function omitEmpty(fields: Mapping): Mapping {
  return Object.fromEntries(
    Object.entries(fields).filter(
      ([, value]) =>
        value !== undefined &&
        value !== '' &&
        value !== false &&
        value !== 0 &&
        !(Array.isArray(value) && !value.length),
    ),
  );
}

function flagToYaml(f: FlagDocument): Mapping {
  return {
    ...omitEmpty({ key: f.key, name: f.name, type: f.type, description: f.description }),
    enabled: f.enabled,
    ...omitEmpty({
      metadata: f.metadata && Object.keys(f.metadata).length ? f.metadata : undefined,
      variants: f.variants.map((v) =>
        omitEmpty({
          default: v.default,
          key: v.key,
          name: v.name,
          description: v.description,
          attachment: v.attachment === '' ? undefined : JSON.parse(v.attachment),
        }),
      ),
      rules: f.rules.map((rule) => ({
        segment:
          rule.segmentKeys.length === 1
            ? rule.segmentKeys[0]
            : { keys: rule.segmentKeys, operator: rule.segmentOperator },
        ...omitEmpty({ distributions: rule.distributions.map((d) => ({ variant: d.variant, rollout: d.rollout })) }),
      })),
      rollouts: f.rollouts.map(rolloutToYaml),
    }),
  };
}

function rolloutToYaml(rollout: RolloutDocument): Mapping {
  if ('threshold' in rollout) {
    // The percentage is written even when 0, as Flipt writes it since v1.58.4.
    const { percentage, value } = rollout.threshold;
    return omitEmpty({ description: rollout.description, threshold: { percentage, ...omitEmpty({ value }) } });
  }
  const { segmentKeys: keys, segmentOperator, value } = rollout.segment;
  const segment = omitEmpty({
    ...(keys.length === 1 ? { key: keys[0] } : { keys }),
    operator: segmentOperator === 'AND_SEGMENT_OPERATOR' ? segmentOperator : undefined,
    value,
  });
  return omitEmpty({ description: rollout.description, segment });
}

function segmentToYaml(s: SegmentDocument): Mapping {
  return omitEmpty({
    key: s.key,
    name: s.name,
    description: s.description,
    constraints: s.constraints.map((c) => omitEmpty({ ...c })),
    match_type: s.matchType,
  });
}
