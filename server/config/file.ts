import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import * as v from 'valibot';
import { ConfigError } from './errors.js';
import { type FileConfig, fileSchema, UNSUPPORTED_KEYS } from './sections.js';

export function readConfigFile(path: string): FileConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read config file ${path}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  return parseConfigFile(text, path);
}

/** Parses and validates a config file's text. Throws a ConfigError naming the first bad key. */
export function parseConfigFile(text: string, fileName = 'config'): FileConfig {
  let raw: unknown;
  try {
    raw = parseYaml(text) ?? {};
  } catch (error) {
    throw new ConfigError(`${fileName}: invalid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  const unsupported = unsupportedKeyIn(raw);
  if (unsupported) {
    const reason =
      UNSUPPORTED_KEYS[unsupported] ?? UNSUPPORTED_KEYS[unsupported.replace(/providers\.[^.]+\./, 'providers.*.')];
    throw new ConfigError(`${fileName}: "${unsupported}" is not supported by Ensign (${reason}); remove it`);
  }
  const result = v.safeParse(fileSchema, raw, { abortEarly: true });
  if (result.success) return result.output;
  const issue = result.issues[0];
  const path = (issue.path ?? []).map((item) => String(item.key)).join('.');
  if (issue.type === 'strict_object' || issue.expected === 'never') {
    throw new ConfigError(`${fileName}: unknown key "${path}"`);
  }
  const received = issue.received ? ` (got ${issue.received})` : '';
  const expected = issue.message.startsWith('must') ? issue.message : `must be ${describe(issue.expected)}`;
  throw new ConfigError(`${fileName}: ${path || '(root)'} ${expected}${received}`);
}

function describe(expected: string | null): string {
  if (!expected) return 'valid';
  if (expected === 'Object') return 'a mapping';
  if (expected === 'Array') return 'a list';
  return `a ${expected.replace(/\|/g, ' or ').replace(/"/g, '')}`;
}

/** The first unsupported key the file sets, as a dotted path. */
function unsupportedKeyIn(file: unknown): string | undefined {
  for (const pattern of Object.keys(UNSUPPORTED_KEYS)) {
    const found = findPath(file, pattern.split('.'), []);
    if (found) return found;
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

interface SchemaNode {
  type: string;
  wrapped?: SchemaNode;
  entries?: Record<string, SchemaNode>;
  value?: SchemaNode;
}

/** Every key the config file accepts, as dotted paths; `*` stands for any name (an OIDC provider's). */
export function acceptedKeys(): string[] {
  return keysOf(fileSchema as unknown as SchemaNode, '');
}

function keysOf(schema: SchemaNode, path: string): string[] {
  const within = (name: string) => (path ? `${path}.${name}` : name);
  if (schema.type === 'optional' && schema.wrapped) return keysOf(schema.wrapped, path);
  if (schema.type === 'strict_object' && schema.entries) {
    return Object.entries(schema.entries).flatMap(([name, entry]) => keysOf(entry, within(name)));
  }
  if (schema.type === 'record' && schema.value?.type === 'strict_object') return keysOf(schema.value, within('*'));
  return [path];
}
