import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import * as v from 'valibot';

/**
 * Ensign's configuration. The file follows Flipt v1's `config.yml` for every section the two share,
 * so a Flipt user can bring theirs; Ensign's own settings live in extra sections (`surveys`).
 * Precedence for each setting: command-line flag, then environment variable, then file, then default.
 */

const str = v.string();
const bool = v.boolean();
const num = v.number();
const strList = v.array(v.string());
const opt = v.optional;
/** A Flipt duration: a number of nanoseconds or a Go duration string such as `24h` or `10m`. */
const duration = v.union([v.string(), v.number()]);

const oidcProvider = v.strictObject({
  issuer_url: opt(str),
  client_id: opt(str),
  client_secret: opt(str),
  redirect_address: opt(str),
  scopes: opt(strList),
  use_pkce: opt(bool),
  nonce: opt(str),
});

const cleanup = v.strictObject({ interval: opt(duration), grace_period: opt(duration) });

const authenticationSection = v.strictObject({
  required: opt(bool),
  exclude: opt(v.strictObject({ management: opt(bool), metadata: opt(bool), evaluation: opt(bool), ofrep: opt(bool) })),
  session: opt(
    v.strictObject({
      domain: opt(str),
      secure: opt(bool),
      token_lifetime: opt(duration),
      state_lifetime: opt(duration),
      csrf: opt(v.strictObject({ key: opt(str), trusted_origins: opt(strList) })),
    }),
  ),
  methods: opt(
    v.strictObject({
      token: opt(
        v.strictObject({
          enabled: opt(bool),
          cleanup: opt(cleanup),
          bootstrap: opt(v.strictObject({ token: opt(str), expiration: opt(duration) })),
        }),
      ),
      oidc: opt(
        v.strictObject({
          enabled: opt(bool),
          cleanup: opt(cleanup),
          providers: opt(v.record(v.string(), oidcProvider)),
          email_matches: opt(strList),
        }),
      ),
      github: opt(
        v.strictObject({
          enabled: opt(bool),
          cleanup: opt(cleanup),
          client_id: opt(str),
          client_secret: opt(str),
          redirect_address: opt(str),
          scopes: opt(strList),
          server_url: opt(str),
          api_url: opt(str),
          allowed_organizations: opt(strList),
          allowed_teams: opt(v.record(v.string(), strList)),
        }),
      ),
      jwt: opt(
        v.strictObject({
          enabled: opt(bool),
          jwks_url: opt(str),
          public_key_file: opt(str),
          validate_claims: opt(v.strictObject({ issuer: opt(str), subject: opt(str), audiences: opt(strList) })),
        }),
      ),
      kubernetes: opt(v.record(v.string(), v.unknown())),
      cloud: opt(v.record(v.string(), v.unknown())),
    }),
  ),
});

const gitSection = v.strictObject({
  repository: opt(str),
  ref: opt(str),
  ref_type: opt(v.picklist(['static', 'semver'], 'must be "static" or "semver"')),
  directory: opt(str),
  poll_interval: opt(duration),
  ca_cert_path: opt(str),
  ca_cert_bytes: opt(str),
  insecure_skip_tls: opt(bool),
  authentication: opt(
    v.strictObject({
      basic: opt(v.strictObject({ username: opt(str), password: opt(str) })),
      token: opt(v.strictObject({ access_token: opt(str) })),
      ssh: opt(
        v.strictObject({
          user: opt(str),
          password: opt(str),
          private_key_bytes: opt(str),
          private_key_path: opt(str),
          insecure_ignore_host_key: opt(bool),
        }),
      ),
    }),
  ),
});

const STORAGE_TYPES = ['database', 'local', 'git'] as const;
export type StorageType = (typeof STORAGE_TYPES)[number];

export type AuthenticationFileConfig = v.InferOutput<typeof authenticationSection>;

/** A number of requests per window from one client address; 0 turns the limit off. */
const requestsPerWindow = v.pipe(num, v.integer('must be a whole number'), v.minValue(0, 'must be 0 or more'));

/** Ensign's own `server.rate_limits` (server/rate-limits.ts). */
const rateLimitsSection = v.strictObject({
  window: opt(duration),
  login: opt(requestsPerWindow),
  token_creation: opt(requestsPerWindow),
  survey_uploads: opt(requestsPerWindow),
  survey_writes: opt(requestsPerWindow),
  evaluation: opt(requestsPerWindow),
});

/** Flipt sections Ensign does not use: accepted so a Flipt file loads, otherwise ignored. */
const ignoredSection = opt(v.unknown());

const fileSchema = v.strictObject({
  version: opt(v.picklist(['1.0'], 'must be "1.0"')),
  server: opt(
    v.strictObject({
      protocol: opt(str),
      host: opt(str),
      http_port: opt(num),
      https_port: opt(num),
      grpc_port: opt(num),
      cert_file: opt(str),
      cert_key: opt(str),
      // Ensign's own: how many processes serve (node:cluster), see server/workers.ts.
      workers: opt(num),
      // Ensign's own: requests per client address (server/rate-limits.ts).
      rate_limits: opt(rateLimitsSection),
      // Ensign's own: how long SIGTERM waits for in-flight requests before the process exits anyway.
      shutdown_timeout: opt(duration),
    }),
  ),
  db: opt(
    v.strictObject({
      url: opt(str),
      max_idle_conn: opt(num),
      max_open_conn: opt(num),
      conn_max_lifetime: opt(duration),
      prepared_statements_enabled: opt(bool),
    }),
  ),
  storage: opt(
    v.strictObject({
      type: opt(v.picklist(STORAGE_TYPES, 'must be "database", "local" or "git"')),
      read_only: opt(bool),
      local: opt(v.strictObject({ path: opt(str) })),
      git: opt(gitSection),
    }),
  ),
  authentication: opt(authenticationSection),
  ui: opt(
    v.strictObject({
      enabled: opt(bool),
      default_theme: opt(v.picklist(['system', 'light', 'dark'], 'must be "system", "light" or "dark"')),
      topbar: opt(v.strictObject({ color: opt(str), label: opt(str) })),
      banner: opt(v.strictObject({ text: opt(str), link: opt(str), link_text: opt(str) })),
      survey_environment: opt(str),
    }),
  ),
  analytics: opt(
    v.strictObject({
      enabled: opt(bool),
      buffer: opt(v.strictObject({ flush_period: opt(duration), capacity: opt(num) })),
      storage: ignoredSection,
    }),
  ),
  cors: opt(v.strictObject({ enabled: opt(bool), allowed_origins: opt(strList), allowed_headers: opt(strList) })),
  log: opt(
    v.strictObject({
      level: opt(v.picklist(['debug', 'info', 'warn', 'error'], 'must be debug, info, warn or error')),
      encoding: opt(v.picklist(['console', 'json'], 'must be "console" or "json"')),
      file: opt(str),
      grpc_level: opt(str),
      keys: ignoredSection,
    }),
  ),
  surveys: opt(
    v.strictObject({
      enabled: opt(bool),
      seed_file: opt(str),
      demo: opt(bool),
      upload_dir: opt(str),
      signing_secret: opt(str),
      upload_quota_mb: opt(v.pipe(num, v.minValue(0, 'must be 0 or more'))),
    }),
  ),
  audit: ignoredSection,
  authorization: ignoredSection,
  cache: ignoredSection,
  cloud: ignoredSection,
  diagnostics: ignoredSection,
  experimental: ignoredSection,
  // Ensign neither checks for updates nor sends telemetry: a file may say so, not ask for them.
  meta: opt(
    v.strictObject({
      check_for_updates: opt(v.literal(false, 'must be false: Ensign never checks for updates')),
      telemetry_enabled: opt(v.literal(false, 'must be false: Ensign sends no telemetry')),
      state_directory: opt(str),
    }),
  ),
  metrics: opt(
    v.strictObject({
      enabled: opt(bool),
      exporter: opt(v.picklist(['prometheus'], 'must be "prometheus" (the OTLP metrics exporter is not supported)')),
    }),
  ),
  tracing: opt(
    v.strictObject({
      enabled: opt(bool),
      exporter: opt(v.picklist(['otlp'], 'must be "otlp" (the Jaeger and Zipkin exporters are not supported)')),
      sampling_ratio: opt(v.pipe(num, v.minValue(0, 'must be from 0 to 1'), v.maxValue(1, 'must be from 0 to 1'))),
      otlp: opt(v.strictObject({ endpoint: opt(str), headers: opt(v.record(v.string(), v.string())) })),
    }),
  ),
});

export type FileConfig = v.InferOutput<typeof fileSchema>;

/**
 * Keys of Flipt's config.yml that Ensign has no behaviour for: a file that sets one is refused,
 * naming it, rather than loaded and silently ignored. `*` stands for any name (an OIDC provider's).
 */
export const UNSUPPORTED_KEYS: Record<string, string> = {
  'server.grpc_port': 'Ensign serves no gRPC API',
  'db.max_idle_conn': 'Ensign sizes its own connection pool',
  'db.max_open_conn': 'Ensign sizes its own connection pool',
  'db.conn_max_lifetime': 'Ensign sizes its own connection pool',
  'db.prepared_statements_enabled': 'Ensign chooses its own statements',
  'authentication.exclude.metadata': 'the metadata routes follow authentication.required',
  'authentication.session.csrf.trusted_origins': 'the CSRF check admits the console origin only',
  'authentication.methods.oidc.providers.*.nonce':
    'every login sends a fresh random nonce and checks it in the ID token; a fixed one would let a stolen ID token be replayed',
  'authentication.methods.kubernetes': 'Kubernetes service-account login is not implemented',
  'authentication.methods.cloud': 'Flipt Cloud login is not implemented',
  'analytics.storage': 'analytics are kept in the server database',
  'analytics.buffer.capacity': 'counts are kept in memory and flushed every analytics.buffer.flush_period',
  'log.grpc_level': 'Ensign serves no gRPC API',
  'log.keys': 'log field names are fixed',
  audit: 'audit sinks are not implemented',
  authorization: 'policy-based authorization is not implemented',
  cache: 'evaluations always run on in-memory snapshots',
  cloud: 'Flipt Cloud is not supported',
  diagnostics: 'profiling endpoints are not served',
  experimental: 'no experimental features',
  'meta.state_directory': 'Ensign keeps no state outside its database',
};

/** Every key the config file accepts, as dotted paths; `*` stands for any name (an OIDC provider's). */
export function acceptedKeys(): string[] {
  return keysOf(fileSchema, '');
}

interface SchemaNode {
  type: string;
  wrapped?: SchemaNode;
  entries?: Record<string, SchemaNode>;
  value?: SchemaNode;
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

export type Theme = 'system' | 'light' | 'dark';
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** The resolved configuration the server runs with. */
export interface Config {
  /**
   * `workers`: how many processes serve on the port (1: this process alone). `port` is the port
   * listened on: `http_port`, or `https_port` when `protocol` is https, which also needs `tls`.
   */
  server: {
    protocol: 'http' | 'https';
    host: string;
    port: number;
    workers: number;
    shutdownTimeoutMs: number;
    tls?: { cert: Buffer; key: Buffer };
  };
  db: { url: string };
  storage: { type: StorageType; readOnly?: boolean; localPath?: string; git?: GitStorageConfig };
  authentication: AuthenticationFileConfig;
  ui: {
    /** false: the console is not served (the APIs are). */
    enabled: boolean;
    defaultTheme: Theme;
    topbar: { color: string; label: string };
    banner?: { text: string; link?: string; linkText?: string };
    surveyEnvironmentId?: string;
  };
  analytics: { enabled: boolean; flushIntervalMs: number };
  /** For the routes browsers call from another origin (server/evaluation/cors.ts). */
  cors: { enabled: boolean; allowedOrigins: string[]; allowedHeaders: string[] };
  /** No `encoding`: readable lines on a terminal, JSON otherwise. No `file`: standard output. */
  log: { level: LogLevel; encoding?: 'console' | 'json'; file?: string };
  /** `GET /metrics` in Prometheus text format. */
  metrics: { enabled: boolean };
  /** Spans sent to an OTLP/HTTP collector; `endpoint` is the full traces URL. */
  tracing: { enabled: boolean; endpoint: string; headers: Record<string, string>; samplingRatio: number };
  /** `uploadQuotaBytes`: what one environment's uploaded files may take in all (0: no quota). */
  surveys: {
    enabled: boolean;
    seedFile?: string;
    demo: boolean;
    uploadDir: string;
    signingSecret?: string;
    uploadQuotaBytes: number;
  };
  /** Requests per client address and window, by kind of route; 0 is no limit (server/rate-limits.ts). */
  rateLimits: RateLimits;
  /** Where the built console and widget files, and the demo host page, are served from. */
  paths: { console: string; widget: string; demo: string };
}

export interface RateLimits {
  windowMs: number;
  login: number;
  tokenCreation: number;
  surveyUploads: number;
  surveyWrites: number;
  evaluation: number;
}

/** `storage.git`: the repository the flags are read from (server/flipt/declarative/git.ts). */
export interface GitStorageConfig {
  /** An http(s), ssh (`ssh://` or `user@host:path`) or file URL. */
  repository: string;
  /** The branch, tag or commit followed; with `refType: 'semver'`, a constraint on tags. */
  ref: string;
  refType: 'static' | 'semver';
  /** The sub-folder of the repository holding the files, '' for its root. */
  directory: string;
  pollIntervalMs: number;
  caCertPath?: string;
  caCertBytes?: string;
  insecureSkipTls: boolean;
  authentication?:
    | { type: 'basic'; username: string; password: string }
    | { type: 'token'; accessToken: string }
    | {
        type: 'ssh';
        user: string;
        password?: string;
        privateKeyBytes?: string;
        privateKeyPath?: string;
        insecureIgnoreHostKey: boolean;
      };
}

/** A configuration problem, worded as one line that names the key or flag. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export const DEFAULT_DB_URL = 'file:./data/ensign.db';
const DEFAULT_OTLP_ENDPOINT = 'http://localhost:4318/v1/traces';

/**
 * The package's own folder, found from this module's location (dist/cli.js once built, server/config.ts
 * when the sources run): the console, widget and demo files are served from there whatever the
 * working directory, so `npm install -g` and `npx ensign` work from any folder.
 */
export const PACKAGE_ROOT = fileURLToPath(new URL('..', import.meta.url));

export function defaultConfig(): Config {
  return {
    server: { protocol: 'http', host: '0.0.0.0', port: 8080, workers: 1, shutdownTimeoutMs: 30_000 },
    db: { url: DEFAULT_DB_URL },
    storage: { type: 'database' },
    authentication: {},
    ui: { enabled: true, defaultTheme: 'system', topbar: { color: '', label: '' } },
    analytics: { enabled: true, flushIntervalMs: 2000 },
    cors: {
      enabled: false,
      allowedOrigins: ['*'],
      // Flipt's list, and If-None-Match and X-Flipt-Environment for the clients' conditional polling.
      allowedHeaders: [
        'Accept',
        'Authorization',
        'Content-Type',
        'X-CSRF-Token',
        'X-Fern-Language',
        'X-Fern-SDK-Name',
        'X-Fern-SDK-Version',
        'X-Flipt-Namespace',
        'X-Flipt-Accept-Server-Version',
        'X-Flipt-Environment',
        'If-None-Match',
      ],
    },
    log: { level: 'info' },
    metrics: { enabled: true },
    tracing: { enabled: false, endpoint: DEFAULT_OTLP_ENDPOINT, headers: {}, samplingRatio: 1 },
    surveys: { enabled: true, demo: true, uploadDir: './data/uploads', uploadQuotaBytes: 1024 * 1024 * 1024 },
    rateLimits: {
      windowMs: 60_000,
      login: 30,
      tokenCreation: 30,
      surveyUploads: 60,
      surveyWrites: 600,
      evaluation: 0,
    },
    paths: {
      console: join(PACKAGE_ROOT, 'dist/console'),
      widget: join(PACKAGE_ROOT, 'dist/widget'),
      demo: join(PACKAGE_ROOT, 'public/demo'),
    },
  };
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
    return failUnknownKey(fileName, path);
  }
  const received = issue.received ? ` (got ${issue.received})` : '';
  const expected = issue.message.startsWith('must') ? issue.message : `must be ${describe(issue.expected)}`;
  throw new ConfigError(`${fileName}: ${path || '(root)'} ${expected}${received}`);
}

function failUnknownKey(fileName: string, path: string): never {
  throw new ConfigError(`${fileName}: unknown key "${path}"`);
}

function describe(expected: string | null): string {
  if (!expected) return 'valid';
  if (expected === 'Object') return 'a mapping';
  if (expected === 'Array') return 'a list';
  return `a ${expected.replace(/\|/g, ' or ').replace(/"/g, '')}`;
}

/** Command-line settings; undefined means "not given". */
export interface FlagSettings {
  port?: string;
  host?: string;
  db?: string;
  config?: string;
  storage?: string;
  storagePath?: string;
  surveys?: string;
  logLevel?: string;
  workers?: string;
}

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
  const file: FileConfig = configPath ? readConfigFile(configPath) : {};
  const config = defaultConfig();

  const pick = <T>(flag: T | undefined, envValue: T | undefined, fileValue: T | undefined): T | undefined =>
    flag ?? envValue ?? fileValue;

  const protocol = file.server?.protocol ?? 'http';
  if (protocol !== 'http' && protocol !== 'https') {
    throw new ConfigError(`server.protocol must be "http" or "https" (got "${protocol}")`);
  }
  config.server.protocol = protocol;
  if (protocol === 'https') {
    config.server.port = 443;
    config.server.tls = {
      cert: readTlsFile(file.server?.cert_file, 'server.cert_file'),
      key: readTlsFile(file.server?.cert_key, 'server.cert_key'),
    };
  } else {
    for (const key of ['https_port', 'cert_file', 'cert_key'] as const) {
      if (file.server?.[key] !== undefined)
        throw new ConfigError(`server.${key} is only used with server.protocol: https`);
    }
  }
  const filePort = protocol === 'https' ? file.server?.https_port : file.server?.http_port;
  const port = pick(flags.port, env.PORT, filePort?.toString());
  if (port !== undefined) config.server.port = parsePort(port, flags.port !== undefined ? '--port' : 'PORT');
  if (file.server?.shutdown_timeout !== undefined) {
    config.server.shutdownTimeoutMs = parseDurationMs(file.server.shutdown_timeout, 'server.shutdown_timeout');
  }
  config.server.host = pick(flags.host, env.HOST, file.server?.host) ?? config.server.host;
  const workers = pick(flags.workers, env.ENSIGN_WORKERS, file.server?.workers?.toString());
  if (workers !== undefined)
    config.server.workers = parseWorkers(
      workers,
      flags.workers !== undefined
        ? '--workers'
        : env.ENSIGN_WORKERS !== undefined
          ? 'ENSIGN_WORKERS'
          : 'server.workers',
    );
  config.db.url = pick(flags.db, env.DATABASE_URL, file.db?.url) ?? config.db.url;

  const storageType = pick(flags.storage, env.ENSIGN_STORAGE_TYPE, file.storage?.type);
  if (storageType !== undefined) {
    if (!(STORAGE_TYPES as readonly string[]).includes(storageType)) {
      throw new ConfigError(`storage type must be "database", "local" or "git" (got "${storageType}")`);
    }
    config.storage.type = storageType as StorageType;
  }
  if (file.storage?.read_only !== undefined) config.storage.readOnly = file.storage.read_only;
  const storagePath = pick(flags.storagePath, env.ENSIGN_STORAGE_PATH, file.storage?.local?.path);
  if (storagePath !== undefined) config.storage.localPath = resolve(storagePath);
  if (config.storage.type === 'local' && !config.storage.localPath) {
    throw new ConfigError('storage.local.path is required when storage.type is "local" (or pass --storage-path)');
  }

  if (config.storage.type === 'git') config.storage.git = gitStorageConfig(file.storage?.git ?? {});

  config.authentication = file.authentication ?? {};

  if (file.ui?.enabled !== undefined) config.ui.enabled = file.ui.enabled;
  if (file.ui?.default_theme) config.ui.defaultTheme = file.ui.default_theme;
  config.ui.topbar = { color: file.ui?.topbar?.color ?? '', label: file.ui?.topbar?.label ?? '' };
  if (file.ui?.banner?.text) {
    config.ui.banner = { text: file.ui.banner.text, link: file.ui.banner.link, linkText: file.ui.banner.link_text };
  }
  if (file.ui?.survey_environment) config.ui.surveyEnvironmentId = file.ui.survey_environment;

  if (file.analytics?.enabled !== undefined) config.analytics.enabled = file.analytics.enabled;
  if (file.analytics?.buffer?.flush_period !== undefined) {
    config.analytics.flushIntervalMs = parseDurationMs(
      file.analytics.buffer.flush_period,
      'analytics.buffer.flush_period',
    );
  }

  if (file.cors?.enabled !== undefined) config.cors.enabled = file.cors.enabled;
  if (file.cors?.allowed_origins) config.cors.allowedOrigins = file.cors.allowed_origins;
  if (file.cors?.allowed_headers) config.cors.allowedHeaders = file.cors.allowed_headers;

  const level = pick(flags.logLevel, env.LOG_LEVEL, file.log?.level);
  if (level !== undefined) {
    if (!['debug', 'info', 'warn', 'error'].includes(level)) {
      throw new ConfigError(`log level must be debug, info, warn or error (got "${level}")`);
    }
    config.log.level = level as LogLevel;
  }
  if (file.log?.encoding) config.log.encoding = file.log.encoding;
  if (file.log?.file) config.log.file = resolve(file.log.file);

  if (file.metrics?.enabled !== undefined) config.metrics.enabled = file.metrics.enabled;

  const tracing = file.tracing ?? {};
  if (tracing.enabled !== undefined) config.tracing.enabled = tracing.enabled;
  if (tracing.sampling_ratio !== undefined) config.tracing.samplingRatio = tracing.sampling_ratio;
  if (tracing.otlp?.endpoint) config.tracing.endpoint = tracesUrl(tracing.otlp.endpoint);
  if (tracing.otlp?.headers) config.tracing.headers = tracing.otlp.headers;

  const surveys = file.surveys ?? {};
  if (surveys.enabled !== undefined) config.surveys.enabled = surveys.enabled;
  if (surveys.demo !== undefined) config.surveys.demo = surveys.demo;
  if (surveys.upload_dir) config.surveys.uploadDir = resolve(surveys.upload_dir);
  if (surveys.signing_secret) config.surveys.signingSecret = surveys.signing_secret;
  if (surveys.upload_quota_mb !== undefined)
    config.surveys.uploadQuotaBytes = Math.round(surveys.upload_quota_mb * 1024 * 1024);
  const seedFile = pick(flags.surveys, env.ENSIGN_SURVEYS_FILE, surveys.seed_file);
  if (seedFile !== undefined) config.surveys.seedFile = resolve(seedFile);

  config.rateLimits = rateLimitsOf(file.server?.rate_limits ?? {}, config.rateLimits);

  return config;
}

function rateLimitsOf(section: v.InferOutput<typeof rateLimitsSection>, defaults: RateLimits): RateLimits {
  const windowMs =
    section.window === undefined ? defaults.windowMs : parseDurationMs(section.window, 'server.rate_limits.window');
  if (windowMs < 1000)
    throw new ConfigError(`server.rate_limits.window must be 1s or longer (got "${section.window}")`);
  return {
    windowMs,
    login: section.login ?? defaults.login,
    tokenCreation: section.token_creation ?? defaults.tokenCreation,
    surveyUploads: section.survey_uploads ?? defaults.surveyUploads,
    surveyWrites: section.survey_writes ?? defaults.surveyWrites,
    evaluation: section.evaluation ?? defaults.evaluation,
  };
}

/** URLs git may fetch from: http(s), ssh, file, or scp-like `user@host:path`. */
const REPOSITORY_URL = /^(?:(?:https?|ssh|file):\/\/\S+|[\w.-]+@[\w.-]+:\S+)$/;

function gitStorageConfig(git: NonNullable<NonNullable<FileConfig['storage']>['git']>): GitStorageConfig {
  const { repository, authentication: auth = {} } = git;
  if (!repository) throw new ConfigError('storage.git.repository is required when storage.type is "git"');
  if (!REPOSITORY_URL.test(repository)) {
    throw new ConfigError('storage.git.repository must be an http(s), ssh or file URL, or user@host:path');
  }
  const ref = git.ref ?? 'main';
  if (!ref || ref.startsWith('-'))
    throw new ConfigError(`storage.git.ref must be a branch, tag or commit (got "${ref}")`);
  const directory = (git.directory ?? '').replace(/^\/+|\/+$/g, '');
  if (directory.split('/').includes('..'))
    throw new ConfigError('storage.git.directory must stay inside the repository');
  const methods = Object.keys(auth);
  if (methods.length > 1) {
    throw new ConfigError(`storage.git.authentication takes one method (got ${methods.join(' and ')})`);
  }
  const config: GitStorageConfig = {
    repository,
    ref,
    refType: git.ref_type ?? 'static',
    directory,
    pollIntervalMs: parseDurationMs(git.poll_interval ?? '30s', 'storage.git.poll_interval'),
    caCertPath: git.ca_cert_path && resolve(git.ca_cert_path),
    caCertBytes: git.ca_cert_bytes,
    insecureSkipTls: git.insecure_skip_tls ?? false,
  };
  if (config.pollIntervalMs < 1000) throw new ConfigError('storage.git.poll_interval must be at least 1s');
  if (auth.basic) {
    const { username, password } = auth.basic;
    if (!username || !password) {
      throw new ConfigError('storage.git.authentication.basic needs username and password');
    }
    config.authentication = { type: 'basic', username, password };
  } else if (auth.token) {
    if (!auth.token.access_token) throw new ConfigError('storage.git.authentication.token needs access_token');
    config.authentication = { type: 'token', accessToken: auth.token.access_token };
  } else if (auth.ssh) {
    const ssh = auth.ssh;
    if (!ssh.private_key_bytes === !ssh.private_key_path) {
      throw new ConfigError('storage.git.authentication.ssh needs one of private_key_bytes and private_key_path');
    }
    config.authentication = {
      type: 'ssh',
      user: ssh.user ?? 'git',
      password: ssh.password,
      privateKeyBytes: ssh.private_key_bytes,
      privateKeyPath: ssh.private_key_path && resolve(ssh.private_key_path),
      insecureIgnoreHostKey: ssh.insecure_ignore_host_key ?? false,
    };
  }
  return config;
}

function readConfigFile(path: string): FileConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read config file ${path}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  return parseConfigFile(text, path);
}

function readTlsFile(path: string | undefined, key: string): Buffer {
  if (!path) throw new ConfigError(`${key} is required when server.protocol is https`);
  try {
    return readFileSync(path);
  } catch (error) {
    throw new ConfigError(`${key}: cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
}

/** Flipt's OTLP endpoint may be `host:port`; the exporter posts to `/v1/traces` unless a path is given. */
function tracesUrl(endpoint: string): string {
  let url: URL;
  try {
    url = new URL(/^[a-z]+:\/\//i.test(endpoint) ? endpoint : `http://${endpoint}`);
  } catch {
    throw new ConfigError(`tracing.otlp.endpoint must be a URL such as http://localhost:4318 (got "${endpoint}")`);
  }
  if (url.pathname === '/') url.pathname = '/v1/traces';
  return url.toString();
}

function parsePort(value: string, source: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`${source} must be a port number from 0 to 65535 (got "${value}")`);
  }
  return port;
}

function parseWorkers(value: string, source: string): number {
  const workers = Number(value);
  if (!Number.isInteger(workers) || workers < 1 || workers > 64) {
    throw new ConfigError(`${source} must be a whole number of processes from 1 to 64 (got "${value}")`);
  }
  return workers;
}

const DURATION_UNITS_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** Parses a Flipt duration (Go syntax such as `1h30m`, or integer nanoseconds) into milliseconds. */
export function parseDurationMs(value: string | number, key: string): number {
  if (typeof value === 'number') return value / 1e6;
  const pattern = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g;
  let total = 0;
  let consumed = 0;
  for (const match of value.matchAll(pattern)) {
    total += Number(match[1]) * DURATION_UNITS_MS[match[2]];
    consumed += match[0].length;
  }
  if (consumed === 0 || consumed !== value.length) {
    throw new ConfigError(`${key} must be a duration such as "30s", "10m" or "24h" (got "${value}")`);
  }
  return total;
}
