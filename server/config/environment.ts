import { ConfigError } from './errors.js';
import { LEAVES, type Leaf, refusalIn, refusedMessage, valueFromText } from './keys.js';
import type { FlagSettings } from './section.js';

/** One value set from outside the file, and where it came from (`env NAME`, `flag --name`). */
export interface Setting {
  path: string[];
  value: unknown;
  source: string;
}

/**
 * Ensign's own command-line flags and environment variables, and the key each one sets. A flag wins
 * over everything, Ensign's variable over the `FLIPT_` one for the same key. `--port` and `PORT` set
 * `server.https_port` when the protocol is https.
 */
export const ENSIGN_SETTINGS: { key: string; flag: keyof FlagSettings; option: string; env: string }[] = [
  { key: 'server.http_port', flag: 'port', option: '--port', env: 'PORT' },
  { key: 'server.host', flag: 'host', option: '--host', env: 'HOST' },
  { key: 'server.workers', flag: 'workers', option: '--workers', env: 'ENSIGN_WORKERS' },
  { key: 'db.url', flag: 'db', option: '--db', env: 'DATABASE_URL' },
  { key: 'storage.type', flag: 'storage', option: '--storage', env: 'ENSIGN_STORAGE_TYPE' },
  { key: 'storage.local.path', flag: 'storagePath', option: '--storage-path', env: 'ENSIGN_STORAGE_PATH' },
  { key: 'surveys.seed_file', flag: 'surveys', option: '--surveys', env: 'ENSIGN_SURVEYS_FILE' },
  { key: 'log.level', flag: 'logLevel', option: '--log-level', env: 'LOG_LEVEL' },
];

/**
 * Flipt v1's rule: every key is `FLIPT_` and the key upper-cased, `.` replaced by `_`; a map's names
 * (OIDC providers, headers) are taken from the variable, lower-cased, and may contain `_`.
 */
const PATTERNS = LEAVES.map((leaf) => {
  const names = leaf.key.split('.').map((name) => (name === '*' ? '(.+)' : name.replace(/[^a-z0-9_]/g, '\\$&')));
  return {
    leaf,
    wildcards: leaf.key.split('.').filter((name) => name === '*').length,
    pattern: new RegExp(`^${names.join('_')}${leaf.open ? '(?:_(.+))?' : ''}$`),
  };
});

/** The key a `FLIPT_` variable sets, as a concrete path, or undefined if it names none. */
function keyOf(variable: string): { leaf: Leaf; path: string[] } | undefined {
  const name = variable.slice('FLIPT_'.length).toLowerCase();
  const matches = PATTERNS.flatMap(({ leaf, wildcards, pattern }) => {
    const match = pattern.exec(name);
    return match ? [{ leaf, wildcards, captures: match.slice(1) }] : [];
  }).sort((a, b) => a.wildcards - b.wildcards);
  const best = matches[0];
  if (!best) return undefined;
  const captures = [...best.captures];
  const path = best.leaf.key.split('.').map((segment) => (segment === '*' ? (captures.shift() as string) : segment));
  const rest = captures.shift();
  return { leaf: best.leaf, path: rest ? [...path, rest] : path };
}

/** The `FLIPT_` variables as settings, and a warning for each that names no key. */
export function fliptVariables(env: NodeJS.ProcessEnv): { settings: Setting[]; warnings: string[] } {
  const settings: Setting[] = [];
  const warnings: string[] = [];
  for (const [variable, text] of Object.entries(env)) {
    if (!variable.startsWith('FLIPT_') || text === undefined) continue;
    const key = keyOf(variable);
    if (!key) {
      warnings.push(`${variable} is not a Flipt setting Ensign knows: ignored`);
      continue;
    }
    const refusal = refusalIn(key.path.reduceRight<unknown>((value, name) => ({ [name]: value }), text));
    if (refusal) throw new ConfigError(refusedMessage(variable, refusal));
    settings.push({ path: key.path, value: valueFromText(key.leaf, text, variable), source: `env ${variable}` });
  }
  return { settings, warnings };
}

/** Ensign's own environment variables that are set, as settings. */
export function ensignVariables(env: NodeJS.ProcessEnv, https: boolean): Setting[] {
  return ENSIGN_SETTINGS.flatMap((entry) =>
    ensignSetting(entry.key, env[entry.env], entry.env, `env ${entry.env}`, https),
  );
}

/** The command-line flags that are given, as settings. */
export function flagSettings(flags: FlagSettings, https: boolean): Setting[] {
  return ENSIGN_SETTINGS.flatMap((entry) =>
    ensignSetting(entry.key, flags[entry.flag], entry.option, `flag ${entry.option}`, https),
  );
}

function ensignSetting(key: string, text: string | undefined, name: string, source: string, https: boolean): Setting[] {
  if (text === undefined) return [];
  const target = https && key === 'server.http_port' ? 'server.https_port' : key;
  const leaf = LEAVES.find((candidate) => candidate.key === target) as Leaf;
  return [{ path: target.split('.'), value: valueFromText(leaf, text, name), source }];
}
