import { type ConfigSource, describeSettings } from './describe.js';
import { ensignVariables, fliptVariables, flagSettings, type Setting } from './environment.js';
import { readConfigFile } from './file.js';
import { type PathsConfig, packagePaths } from './paths.js';
import type { FlagSettings } from './section.js';
import { type FileConfig, SECTIONS, type SectionsConfig } from './sections.js';

/**
 * Ensign's configuration. The file follows Flipt v1's `config.yml` for every section the two share,
 * so a Flipt user can bring theirs; Ensign's own settings live in extra sections (`surveys`) and keys.
 * Each section is one file of this folder (sections.ts lists them). Precedence for each key:
 * command-line flag, then environment variable (Ensign's own, then `FLIPT_`), then file, then default.
 */

/** The resolved configuration the server runs with. */
export type Config = SectionsConfig & PathsConfig;

export type { AuthenticationFileConfig } from './authentication.js';
export { DEFAULT_DB_URL } from './db.js';
export { parseDurationMs } from './duration.js';
export { ENSIGN_SETTINGS } from './environment.js';
export { ConfigError } from './errors.js';
export { parseConfigFile } from './file.js';
export type { GitStorageConfig } from './git.js';
export { acceptedKeys } from './keys.js';
export type { LogLevel } from './log.js';
export { PACKAGE_ROOT } from './paths.js';
export type { FlagSettings } from './section.js';
export { type FileConfig, UNSUPPORTED_KEYS } from './sections.js';
export type { RateLimits } from './server.js';
export type { StorageType } from './storage.js';
export { demoEnabled } from './surveys.js';
export type { Theme } from './ui.js';

/** The configuration, each key's value and where it came from, and what to warn about. */
export interface LoadedConfig {
  config: Config;
  /** The config file read, if any. */
  file?: string;
  /** Every key that has a value, by dotted path, in the order of the sections. */
  settings: Map<string, ConfigSource>;
  warnings: string[];
  /** The settings as lines for `ensign config`, secrets masked. */
  describe(): string;
}

/** Resolves the configuration: flag, then environment, then file, then default. */
export function loadConfig(flags: FlagSettings = {}, env: NodeJS.ProcessEnv = process.env): Config {
  return resolveConfig(flags, env).config;
}

export function resolveConfig(flags: FlagSettings = {}, env: NodeJS.ProcessEnv = process.env): LoadedConfig {
  const file = flags.config ?? env.ENSIGN_CONFIG;
  const merged: Record<string, unknown> = {};
  const settings = new Map<string, ConfigSource>();
  const apply = (layer: Setting[]) => {
    for (const { path, value, source } of layer) {
      setPath(merged, path, value);
      settings.set(path.join('.'), { value, source });
    }
  };
  apply(settingsOf(Object.fromEntries(SECTIONS.map((section) => [section.key, section.defaults])), 'default'));
  if (file) apply(settingsOf(readConfigFile(file, env), 'file'));
  const flipt = fliptVariables(env);
  apply(flipt.settings);
  const https = (merged.server as { protocol?: string } | undefined)?.protocol === 'https';
  apply(ensignVariables(env, https));
  apply(flagSettings(flags, https));

  const config: Record<string, unknown> = { paths: packagePaths() };
  for (const section of SECTIONS) {
    if (!section.resolve) continue;
    const resolve = section.resolve as (settings: unknown) => object;
    Object.assign(config, resolve(merged[section.key] ?? {}));
  }
  return {
    config: config as Config,
    file,
    settings,
    warnings: flipt.warnings,
    describe: () => describeSettings(settings, file),
  };
}

/** The configuration with no file, flag or environment variable: every default. */
export function defaultConfig(): Config {
  return resolveConfig({}, {}).config;
}

/** A file's (or the defaults') values as settings: lists and scalars are values, mappings go deeper. */
function settingsOf(tree: FileConfig | Record<string, unknown>, source: string, path: string[] = []): Setting[] {
  return Object.entries(tree).flatMap(([name, value]) =>
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? settingsOf(value as Record<string, unknown>, source, [...path, name])
      : value === undefined
        ? []
        : [{ path: [...path, name], value, source }],
  );
}

function setPath(tree: Record<string, unknown>, path: string[], value: unknown): void {
  const [name, ...rest] = path;
  if (rest.length === 0) {
    tree[name] = value;
    return;
  }
  const child = tree[name];
  const next = typeof child === 'object' && child !== null ? (child as Record<string, unknown>) : {};
  tree[name] = next;
  setPath(next, rest, value);
}
