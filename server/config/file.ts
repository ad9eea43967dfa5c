import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import * as v from 'valibot';
import { ConfigError } from './errors.js';
import { leafAt, mustBe, refusalIn, refusedMessage, valueFromText } from './keys.js';
import { type FileConfig, fileSchema } from './sections.js';

export function readConfigFile(path: string, env: NodeJS.ProcessEnv): FileConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read config file ${path}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  return parseConfigFile(text, path, env);
}

/**
 * Parses and validates a config file's text, a value that is exactly `${NAME}` replaced by that
 * environment variable. Throws a ConfigError naming the first bad key.
 */
export function parseConfigFile(text: string, fileName = 'config', env: NodeJS.ProcessEnv = process.env): FileConfig {
  let raw: unknown;
  try {
    raw = parseYaml(text) ?? {};
  } catch (error) {
    throw new ConfigError(`${fileName}: invalid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  const refusal = refusalIn(raw);
  if (refusal) throw new ConfigError(refusedMessage(fileName, refusal));
  raw = substituted(raw, [], env, fileName);
  const result = v.safeParse(fileSchema, raw, { abortEarly: true });
  if (result.success) return result.output;
  const issue = result.issues[0];
  const path = (issue.path ?? []).map((item) => String(item.key)).join('.');
  if (issue.type === 'strict_object' || issue.expected === 'never') {
    throw new ConfigError(`${fileName}: unknown key "${path}"`);
  }
  const received = issue.received ? ` (got ${issue.received})` : '';
  throw new ConfigError(`${fileName}: ${path || '(root)'} ${mustBe(issue)}${received}`);
}

const REFERENCE = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

/** Flipt v1.45's `${NAME}`: a value that is exactly a reference becomes that variable's value. */
function substituted(value: unknown, path: string[], env: NodeJS.ProcessEnv, fileName: string): unknown {
  if (Array.isArray(value))
    return value.map((item, index) => substituted(item, [...path, String(index)], env, fileName));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([name, item]) => [name, substituted(item, [...path, name], env, fileName)]),
    );
  }
  const name = typeof value === 'string' ? REFERENCE.exec(value)?.[1] : undefined;
  if (!name) return value;
  const key = path.join('.');
  const text = env[name];
  if (text === undefined) throw new ConfigError(`${fileName}: ${key} is \${${name}}, but ${name} is not set`);
  const leaf = leafAt(path);
  return leaf ? valueFromText(leaf, text, `${fileName}: ${key} (\${${name}})`) : text;
}
