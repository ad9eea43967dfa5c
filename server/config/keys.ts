import * as v from 'valibot';
import { ConfigError } from './errors.js';
import { fileSchema, UNSUPPORTED_KEYS } from './sections.js';

interface SchemaNode {
  type: string;
  wrapped?: SchemaNode;
  entries?: Record<string, SchemaNode>;
  value?: SchemaNode;
  literal?: unknown;
}

/** How a value written as text (an environment variable, a `${VAR}`) becomes the key's value. */
type Kind = 'text' | 'number' | 'boolean' | 'list';

/** A key that takes a value; `*` in `key` stands for any name (an OIDC provider's, a header's). */
export interface Leaf {
  key: string;
  schema: v.GenericSchema;
  kind: Kind;
  /** A section or map Ensign accepts whole (to refuse it): any key below it is this leaf. */
  open: boolean;
}

export const LEAVES: Leaf[] = leavesOf(fileSchema as unknown as SchemaNode, '');

function leavesOf(node: SchemaNode, path: string): Leaf[] {
  const within = (name: string) => (path ? `${path}.${name}` : name);
  if (node.type === 'optional' && node.wrapped) return leavesOf(node.wrapped, path);
  if (node.type === 'strict_object' && node.entries) {
    return Object.entries(node.entries).flatMap(([name, entry]) => leavesOf(entry, within(name)));
  }
  if (node.type === 'record' && node.value) return leavesOf(node.value, within('*'));
  const kind: Kind =
    node.type === 'number'
      ? 'number'
      : node.type === 'boolean' || typeof node.literal === 'boolean'
        ? 'boolean'
        : node.type === 'array'
          ? 'list'
          : 'text';
  return [{ key: path, schema: node as unknown as v.GenericSchema, kind, open: node.type === 'unknown' }];
}

/** Every key the config file accepts, as dotted paths; `*` stands for any name (an OIDC provider's). */
export function acceptedKeys(): string[] {
  return LEAVES.map((leaf) => leaf.key.replace(/\.\*$/, ''));
}

/** The leaf a concrete path (such as `authentication.methods.oidc.providers.google.client_id`) sets. */
export function leafAt(path: string[]): Leaf | undefined {
  return LEAVES.find((leaf) => {
    const pattern = leaf.key.split('.');
    if (leaf.open ? path.length < pattern.length : path.length !== pattern.length) return false;
    return pattern.every((name, index) => name === '*' || name === path[index]);
  });
}

/** Go's strconv.ParseBool, which Flipt's environment variables go through. */
const BOOLEANS: Record<string, boolean> = {
  ...Object.fromEntries(['1', 't', 'T', 'TRUE', 'true', 'True'].map((text) => [text, true])),
  ...Object.fromEntries(['0', 'f', 'F', 'FALSE', 'false', 'False'].map((text) => [text, false])),
};

/**
 * A value written as text, as Flipt reads it: lists split on whitespace, numbers and booleans
 * parsed, durations and the rest kept as written. Throws a ConfigError beginning with `name`.
 */
export function valueFromText(leaf: Leaf, text: string, name: string): unknown {
  const value =
    leaf.kind === 'list'
      ? text.split(/\s+/).filter(Boolean)
      : leaf.kind === 'number' && /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text)
        ? Number(text)
        : leaf.kind === 'boolean' && text in BOOLEANS
          ? BOOLEANS[text]
          : text;
  const result = v.safeParse(leaf.schema, value, { abortEarly: true });
  if (!result.success) throw new ConfigError(`${name} ${mustBe(result.issues[0])} (got "${text}")`);
  return result.output;
}

/** What a failed check asks for, as the end of a sentence naming the key. */
export function mustBe(issue: v.BaseIssue<unknown>): string {
  if (issue.message.startsWith('must')) return issue.message;
  const { expected } = issue;
  if (!expected) return 'must be valid';
  if (expected === 'Object') return 'must be a mapping';
  if (expected === 'Array') return 'must be a list';
  return `must be a ${expected.replace(/\|/g, ' or ').replace(/"/g, '')}`;
}

/** The first key `settings` sets that Ensign refuses (as a dotted path), and why. */
export function refusalIn(settings: unknown): { key: string; reason: string } | undefined {
  for (const [pattern, reason] of Object.entries(UNSUPPORTED_KEYS)) {
    const key = findPath(settings, pattern.split('.'), []);
    if (key) return { key, reason };
  }
  return undefined;
}

function findPath(value: unknown, pattern: string[], path: string[]): string | undefined {
  if (pattern.length === 0) return value === undefined ? undefined : path.join('.');
  if (typeof value !== 'object' || value === null) return undefined;
  const [head, ...rest] = pattern;
  const names = head === '*' ? Object.keys(value) : [head];
  for (const name of names) {
    const found = findPath((value as Record<string, unknown>)[name], rest, [...path, name]);
    if (found) return found;
  }
  return undefined;
}

/** The message that stops the start on a refused key, `where` naming the file or variable. */
export function refusedMessage(where: string, refusal: { key: string; reason: string }): string {
  return `${where}: "${refusal.key}" is not supported by Ensign (${refusal.reason}); remove it`;
}
