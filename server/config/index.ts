import { readConfigFile } from './file.js';
import { type PathsConfig, packagePaths } from './paths.js';
import type { FlagSettings, LoadInputs } from './section.js';
import { type FileConfig, SECTIONS, type SectionsConfig } from './sections.js';

/**
 * Ensign's configuration. The file follows Flipt v1's `config.yml` for every section the two share,
 * so a Flipt user can bring theirs; Ensign's own settings live in extra sections (`surveys`) and keys.
 * Each section is one file of this folder (sections.ts lists them). Precedence for each setting:
 * command-line flag, then environment variable, then file, then default.
 */

/** The resolved configuration the server runs with. */
export type Config = SectionsConfig & PathsConfig;

export type { AuthenticationFileConfig } from './authentication.js';
export { DEFAULT_DB_URL } from './db.js';
export { parseDurationMs } from './duration.js';
export { ConfigError } from './errors.js';
export { acceptedKeys, parseConfigFile } from './file.js';
export type { GitStorageConfig } from './git.js';
export type { LogLevel } from './log.js';
export { PACKAGE_ROOT } from './paths.js';
export type { FlagSettings } from './section.js';
export { type FileConfig, UNSUPPORTED_KEYS } from './sections.js';
export type { RateLimits } from './server.js';
export type { StorageType } from './storage.js';
export type { Theme } from './ui.js';

/** Environment variables Ensign reads, and the setting each one stands for. */
export const ENVIRONMENT_VARIABLES = {
  PORT: 'server.http_port',
  HOST: 'server.host',
  ENSIGN_WORKERS: 'server.workers',
  DATABASE_URL: 'db.url',
  ENSIGN_CONFIG: 'the config file path',
  ENSIGN_STORAGE_TYPE: 'storage.type',
  ENSIGN_STORAGE_PATH: 'storage.local.path',
  ENSIGN_SURVEYS_FILE: 'surveys.seed_file',
  LOG_LEVEL: 'log.level',
} as const;

/** Resolves the configuration: flag, then environment, then file, then default. */
export function loadConfig(flags: FlagSettings = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const configPath = flags.config ?? env.ENSIGN_CONFIG;
  return resolveSections(configPath ? readConfigFile(configPath) : {}, { flags, env });
}

/** The configuration with no file, flag or environment variable: every default. */
export function defaultConfig(): Config {
  return resolveSections({}, { flags: {}, env: {} });
}

function resolveSections(file: FileConfig, inputs: LoadInputs): Config {
  const config: Record<string, unknown> = { paths: packagePaths() };
  for (const section of SECTIONS) {
    if (!section.resolve) continue;
    const own = (file as Record<string, unknown>)[section.key] ?? {};
    Object.assign(config, (section.resolve as (file: unknown, inputs: LoadInputs) => object)(own, inputs));
  }
  return config as Config;
}
