// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config values written as ${NAME} are what is tested
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../server/cli.js';
import { fliptVariables } from '../../server/config/environment.js';
import { ConfigError, ENSIGN_SETTINGS, parseConfigFile, resolveConfig } from '../../server/config/index.js';
import { LEAVES } from '../../server/config/keys.js';

class Exit extends Error {}

const dir = mkdtempSync(join(tmpdir(), 'ensign-env-'));
let files = 0;
function configFile(text: string): string {
  const path = join(dir, `config-${files++}.yml`);
  writeFileSync(path, text);
  return path;
}

/**
 * Runs `ensign config ARGS` in this process with exactly `env` as Flipt's and Ensign's variables;
 * returns each printed key's value and source, and what went to standard error.
 */
async function ensignConfig(env: Record<string, string>, ...args: string[]) {
  for (const name of Object.keys(process.env)) if (name.startsWith('FLIPT_')) vi.stubEnv(name, undefined);
  for (const { env: name } of ENSIGN_SETTINGS) vi.stubEnv(name, undefined);
  vi.stubEnv('ENSIGN_CONFIG', undefined);
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  let stdout = '';
  let stderr = '';
  const log = vi.spyOn(console, 'log').mockImplementation((text: string) => {
    stdout += `${text}\n`;
  });
  const error = vi.spyOn(console, 'error').mockImplementation((text: string) => {
    stderr += `${text}\n`;
  });
  const exit = vi.spyOn(process, 'exit').mockImplementation(() => {
    throw new Exit();
  });
  try {
    await main(['config', ...args]);
  } catch (caught) {
    if (!(caught instanceof Exit)) throw caught;
  } finally {
    log.mockRestore();
    error.mockRestore();
    exit.mockRestore();
  }
  const keys = new Map<string, { value: unknown; source: string }>();
  for (const line of stdout.split('\n').filter((line) => line && !line.startsWith('#'))) {
    const [, key, value, source] = /^(\S+)\s+(.+?)\s+\((.+)\)$/.exec(line) ?? [];
    keys.set(key, { value: JSON.parse(value), source });
  }
  return { keys, stderr };
}

afterEach(() => vi.unstubAllEnvs());

/** Flipt's variables, the key each one sets and the value `ensign config` shows for it. */
const VARIABLES: [variable: string, text: string, key: string, shown: unknown][] = [
  ['FLIPT_DB_URL', 'postgres://flipt:pw@db:5432/flipt', 'db.url', 'postgres://flipt:******@db:5432/flipt'],
  ['FLIPT_SERVER_HTTP_PORT', '9090', 'server.http_port', 9090],
  ['FLIPT_SERVER_HOST', '127.0.0.1', 'server.host', '127.0.0.1'],
  ['FLIPT_SERVER_WORKERS', '2', 'server.workers', 2],
  ['FLIPT_SERVER_SHUTDOWN_TIMEOUT', '45s', 'server.shutdown_timeout', '45s'],
  ['FLIPT_SERVER_RATE_LIMITS_WINDOW', '2m', 'server.rate_limits.window', '2m'],
  ['FLIPT_SERVER_RATE_LIMITS_LOGIN', '5', 'server.rate_limits.login', 5],
  ['FLIPT_LOG_LEVEL', 'debug', 'log.level', 'debug'],
  ['FLIPT_LOG_ENCODING', 'json', 'log.encoding', 'json'],
  ['FLIPT_CORS_ENABLED', 'true', 'cors.enabled', true],
  [
    'FLIPT_CORS_ALLOWED_ORIGINS',
    'https://a.example  https://b.example',
    'cors.allowed_origins',
    ['https://a.example', 'https://b.example'],
  ],
  ['FLIPT_CORS_ALLOWED_HEADERS', 'X-One X-Two', 'cors.allowed_headers', ['X-One', 'X-Two']],
  ['FLIPT_UI_ENABLED', 'false', 'ui.enabled', false],
  ['FLIPT_UI_DEFAULT_THEME', 'dark', 'ui.default_theme', 'dark'],
  ['FLIPT_UI_TOPBAR_LABEL', 'Staging', 'ui.topbar.label', 'Staging'],
  ['FLIPT_UI_BANNER_TEXT', 'Read the runbook', 'ui.banner.text', 'Read the runbook'],
  ['FLIPT_ANALYTICS_ENABLED', '0', 'analytics.enabled', false],
  ['FLIPT_ANALYTICS_BUFFER_FLUSH_PERIOD', '10s', 'analytics.buffer.flush_period', '10s'],
  ['FLIPT_STORAGE_READ_ONLY', 'T', 'storage.read_only', true],
  ['FLIPT_METRICS_ENABLED', 'F', 'metrics.enabled', false],
  ['FLIPT_TRACING_ENABLED', 'TRUE', 'tracing.enabled', true],
  ['FLIPT_TRACING_SAMPLING_RATIO', '0.25', 'tracing.sampling_ratio', 0.25],
  ['FLIPT_TRACING_OTLP_ENDPOINT', 'collector:4318', 'tracing.otlp.endpoint', 'collector:4318'],
  ['FLIPT_TRACING_OTLP_HEADERS_AUTHORIZATION', 'Bearer x', 'tracing.otlp.headers.authorization', '******'],
  ['FLIPT_AUTHENTICATION_REQUIRED', 'true', 'authentication.required', true],
  ['FLIPT_AUTHENTICATION_EXCLUDE_MANAGEMENT', '1', 'authentication.exclude.management', true],
  ['FLIPT_AUTHENTICATION_SESSION_DOMAIN', 'flags.example.com', 'authentication.session.domain', 'flags.example.com'],
  ['FLIPT_AUTHENTICATION_SESSION_SECURE', 'true', 'authentication.session.secure', true],
  ['FLIPT_AUTHENTICATION_SESSION_TOKEN_LIFETIME', '12h', 'authentication.session.token_lifetime', '12h'],
  ['FLIPT_AUTHENTICATION_SESSION_CSRF_KEY', 'abcdef', 'authentication.session.csrf.key', '******'],
  [
    'FLIPT_AUTHENTICATION_SESSION_CSRF_TRUSTED_ORIGINS',
    'https://a.example http://localhost:3000',
    'authentication.session.csrf.trusted_origins',
    ['https://a.example', 'http://localhost:3000'],
  ],
  ['FLIPT_AUTHENTICATION_SESSION_CSRF_SECURE', 'false', 'authentication.session.csrf.secure', false],
  ['FLIPT_AUTHENTICATION_METHODS_TOKEN_ENABLED', 'true', 'authentication.methods.token.enabled', true],
  ['FLIPT_AUTHENTICATION_METHODS_TOKEN_CLEANUP_INTERVAL', '1h', 'authentication.methods.token.cleanup.interval', '1h'],
  [
    'FLIPT_AUTHENTICATION_METHODS_TOKEN_BOOTSTRAP_TOKEN',
    's3cret',
    'authentication.methods.token.bootstrap.token',
    '******',
  ],
  [
    'FLIPT_AUTHENTICATION_METHODS_TOKEN_BOOTSTRAP_EXPIRATION',
    '24h',
    'authentication.methods.token.bootstrap.expiration',
    '24h',
  ],
  ['FLIPT_AUTHENTICATION_METHODS_OIDC_ENABLED', 'true', 'authentication.methods.oidc.enabled', true],
  [
    'FLIPT_AUTHENTICATION_METHODS_OIDC_EMAIL_MATCHES',
    '^.*@example\\.com$',
    'authentication.methods.oidc.email_matches',
    ['^.*@example\\.com$'],
  ],
  [
    'FLIPT_AUTHENTICATION_METHODS_OIDC_PROVIDERS_GOOGLE_CLIENT_ID',
    'cid',
    'authentication.methods.oidc.providers.google.client_id',
    'cid',
  ],
  [
    'FLIPT_AUTHENTICATION_METHODS_OIDC_PROVIDERS_GOOGLE_CLIENT_SECRET',
    'cs',
    'authentication.methods.oidc.providers.google.client_secret',
    '******',
  ],
  [
    'FLIPT_AUTHENTICATION_METHODS_OIDC_PROVIDERS_GOOGLE_ISSUER_URL',
    'https://accounts.google.com',
    'authentication.methods.oidc.providers.google.issuer_url',
    'https://accounts.google.com',
  ],
  [
    'FLIPT_AUTHENTICATION_METHODS_OIDC_PROVIDERS_MY_IDP_SCOPES',
    'openid email',
    'authentication.methods.oidc.providers.my_idp.scopes',
    ['openid', 'email'],
  ],
  [
    'FLIPT_AUTHENTICATION_METHODS_OIDC_PROVIDERS_MY_IDP_NONCE',
    'static',
    'authentication.methods.oidc.providers.my_idp.nonce',
    'static',
  ],
  [
    'FLIPT_AUTHENTICATION_METHODS_OIDC_PROVIDERS_MY_IDP_USE_PKCE',
    'true',
    'authentication.methods.oidc.providers.my_idp.use_pkce',
    true,
  ],
  ['FLIPT_AUTHENTICATION_METHODS_GITHUB_CLIENT_ID', 'gh', 'authentication.methods.github.client_id', 'gh'],
  [
    'FLIPT_AUTHENTICATION_METHODS_GITHUB_ALLOWED_ORGANIZATIONS',
    'acme umbrella',
    'authentication.methods.github.allowed_organizations',
    ['acme', 'umbrella'],
  ],
  [
    'FLIPT_AUTHENTICATION_METHODS_GITHUB_ALLOWED_TEAMS_ACME_CORP',
    'core ops',
    'authentication.methods.github.allowed_teams.acme_corp',
    ['core', 'ops'],
  ],
  ['FLIPT_AUTHENTICATION_METHODS_JWT_ENABLED', 'true', 'authentication.methods.jwt.enabled', true],
  [
    'FLIPT_AUTHENTICATION_METHODS_JWT_VALIDATE_CLAIMS_AUDIENCES',
    'a b',
    'authentication.methods.jwt.validate_claims.audiences',
    ['a', 'b'],
  ],
  ['FLIPT_SURVEYS_SIGNING_SECRET', 'k', 'surveys.signing_secret', '******'],
  ['FLIPT_META_CHECK_FOR_UPDATES', 'false', 'meta.check_for_updates', false],
  ['FLIPT_CACHE_ENABLED', 'false', 'cache.enabled', false],
  ['FLIPT_ANALYTICS_STORAGE_PROMETHEUS_ENABLED', 'false', 'analytics.storage.prometheus.enabled', false],
];

describe("Flipt's environment variables", () => {
  it.each(VARIABLES)('%s=%j sets the key, as `ensign config` shows', async (variable, text, key, shown) => {
    const { keys, stderr } = await ensignConfig({ [variable]: text });
    expect(stderr).toBe('');
    expect(keys.get(key)).toEqual({ value: shown, source: `env ${variable}` });
  });

  /** A value each key takes, where "x", "1", "false" or "a b" will not do. */
  const VALID: Record<string, string> = {
    version: '1.0',
    'server.protocol': 'http',
    'storage.type': 'git',
    'storage.git.ref_type': 'semver',
    'ui.default_theme': 'dark',
    'log.level': 'warn',
    'log.encoding': 'json',
    'audit.sinks.log.encoding': 'json',
    'metrics.exporter': 'prometheus',
    'tracing.exporter': 'otlp',
  };

  it('name every key of the config file, maps included, or refuse it as the file does', () => {
    for (const leaf of LEAVES) {
      // A list of objects cannot be one variable's text (neither in Flipt): the variable gets the schema's error.
      if (leaf.key === 'audit.sinks.webhook.templates') continue;
      const key = leaf.key.replaceAll('*', 'my_name');
      const variable = `FLIPT_${key.replaceAll('.', '_').toUpperCase()}`;
      const text = VALID[leaf.key] ?? { text: 'x', number: '1', boolean: 'false', list: 'a b' }[leaf.kind];
      const refusedInFile = (() => {
        try {
          parseConfigFile(key.split('.').reduceRight((yaml, name) => `{${name}: ${yaml}}`, JSON.stringify(text)));
        } catch (error) {
          return (error as Error).message.replace(/^config:/, `${variable}:`);
        }
      })();
      if (refusedInFile?.includes('is not supported by Ensign')) {
        expect(() => fliptVariables({ [variable]: text }), variable).toThrow(new ConfigError(refusedInFile));
        continue;
      }
      const { settings, warnings } = fliptVariables({ [variable]: text });
      expect(warnings, variable).toEqual([]);
      expect(
        settings.map((setting) => setting.path.join('.')),
        variable,
      ).toEqual([key]);
    }
  });

  it('take effect together in the configuration the server runs with', () => {
    const env = Object.fromEntries(VARIABLES.map(([variable, text]) => [variable, text]));
    const { config, warnings } = resolveConfig({}, env);
    expect(warnings).toEqual([]);
    expect(config.db.url).toBe('postgres://flipt:pw@db:5432/flipt');
    expect(config.server).toMatchObject({ host: '127.0.0.1', port: 9090, workers: 2, shutdownTimeoutMs: 45_000 });
    expect(config.rateLimits).toMatchObject({ windowMs: 120_000, login: 5 });
    expect(config.log).toEqual({ level: 'debug', encoding: 'json' });
    expect(config.cors).toEqual({
      enabled: true,
      allowedOrigins: ['https://a.example', 'https://b.example'],
      allowedHeaders: ['X-One', 'X-Two'],
    });
    expect(config.ui).toMatchObject({ enabled: false, defaultTheme: 'dark', topbar: { label: 'Staging' } });
    expect(config.analytics).toEqual({ enabled: false, flushIntervalMs: 10_000 });
    expect(config.storage.readOnly).toBe(true);
    expect(config.tracing).toEqual({
      enabled: true,
      endpoint: 'http://collector:4318/v1/traces',
      headers: { authorization: 'Bearer x' },
      samplingRatio: 0.25,
    });
    expect(config.authentication.methods?.oidc?.providers).toEqual({
      google: { client_id: 'cid', client_secret: 'cs', issuer_url: 'https://accounts.google.com' },
      my_idp: { scopes: ['openid', 'email'], nonce: 'static', use_pkce: true },
    });
    expect(config.authentication.methods?.github?.allowed_teams).toEqual({ acme_corp: ['core', 'ops'] });
    expect(config.authentication.methods?.token).toEqual({
      enabled: true,
      cleanup: { interval: '1h' },
      bootstrap: { token: 's3cret', expiration: '24h' },
    });
  });

  it('take a flag over the environment, the environment over the file, the file over the default', async () => {
    const file = configFile('log:\n  level: warn\ndb:\n  url: file:/tmp/from-file.db\n');
    const level = async (env: Record<string, string>, ...args: string[]) =>
      (await ensignConfig(env, '--config', file, ...args)).keys.get('log.level');
    expect((await ensignConfig({})).keys.get('log.level')).toEqual({ value: 'info', source: 'default' });
    expect(await level({})).toEqual({ value: 'warn', source: `file ${file}` });
    expect(await level({ FLIPT_LOG_LEVEL: 'error' })).toEqual({ value: 'error', source: 'env FLIPT_LOG_LEVEL' });
    expect(await level({ FLIPT_LOG_LEVEL: 'error' }, '--log-level', 'debug')).toEqual({
      value: 'debug',
      source: 'flag --log-level',
    });
    // Ensign's own variable names the same key as Flipt's, and wins over it.
    expect(await level({ FLIPT_LOG_LEVEL: 'error', LOG_LEVEL: 'debug' })).toEqual({
      value: 'debug',
      source: 'env LOG_LEVEL',
    });
    const { keys } = await ensignConfig(
      { FLIPT_DB_URL: 'postgres://x/flipt', FLIPT_CONFIG_DIR: '/etc' },
      '--config',
      file,
    );
    expect(keys.get('db.url')).toEqual({ value: 'postgres://x/flipt', source: 'env FLIPT_DB_URL' });
    expect(resolveConfig({ db: 'file:/tmp/flag.db' }, { FLIPT_DB_URL: 'postgres://x/flipt' }).config.db.url).toBe(
      'file:/tmp/flag.db',
    );
  });

  it("add to a file's map: a provider's secret from the environment, its other keys from the file", () => {
    const file = configFile(
      'authentication:\n  methods:\n    oidc:\n      providers:\n        google:\n          client_id: from-file\n',
    );
    const { config } = resolveConfig(
      { config: file },
      { FLIPT_AUTHENTICATION_METHODS_OIDC_PROVIDERS_GOOGLE_CLIENT_SECRET: 'from-env' },
    );
    expect(config.authentication.methods?.oidc?.providers?.google).toEqual({
      client_id: 'from-file',
      client_secret: 'from-env',
    });
  });

  it('stop the start on a bad value, naming the variable', () => {
    expect(() => resolveConfig({}, { FLIPT_SERVER_HTTP_PORT: 'eighty' })).toThrow(
      new ConfigError('FLIPT_SERVER_HTTP_PORT must be a port number from 0 to 65535 (got "eighty")'),
    );
    expect(() => resolveConfig({}, { FLIPT_CORS_ENABLED: 'yes' })).toThrow(
      new ConfigError('FLIPT_CORS_ENABLED must be a boolean (got "yes")'),
    );
    expect(() => resolveConfig({}, { FLIPT_LOG_LEVEL: 'trace' })).toThrow(
      new ConfigError('FLIPT_LOG_LEVEL must be debug, info, warn or error (got "trace")'),
    );
  });

  /** A variable for a refused key, and the config.yml that sets the same key. */
  const REFUSED: [variable: string, yaml: string][] = [
    ['FLIPT_DB_MAX_OPEN_CONN', 'db:\n  max_open_conn: 10\n'],
    ['FLIPT_LOG_GRPC_LEVEL', 'log:\n  grpc_level: warn\n'],
    ['FLIPT_AUTHENTICATION_METHODS_CLOUD_ENABLED', 'authentication:\n  methods:\n    cloud:\n      enabled: true\n'],
    ['FLIPT_AUDIT_SINKS_KAFKA_ENABLED', 'audit:\n  sinks:\n    kafka:\n      enabled: true\n'],
    ['FLIPT_CACHE_BACKEND', 'cache:\n  backend: redis\n'],
    ['FLIPT_CACHE_REDIS_PREFIX', 'cache:\n  redis:\n    prefix: flipt\n'],
    ['FLIPT_CACHE_REDIS_MODE', 'cache:\n  redis:\n    mode: cluster\n'],
    ['FLIPT_CACHE_REDIS_POOL_SIZE', 'cache:\n  redis:\n    pool_size: 5\n'],
    ['FLIPT_ANALYTICS_STORAGE_PROMETHEUS_URL', 'analytics:\n  storage:\n    prometheus:\n      url: http://prom\n'],
    [
      'FLIPT_ANALYTICS_STORAGE_PROMETHEUS_HEADERS_AUTHORIZATION',
      'analytics:\n  storage:\n    prometheus:\n      headers:\n        authorization: Bearer x\n',
    ],
    ['FLIPT_ANALYTICS_STORAGE_CLICKHOUSE_URL', 'analytics:\n  storage:\n    clickhouse:\n      url: clickhouse://c\n'],
  ];

  it.each(REFUSED)('%s stops the start with the reason the file key gets', (variable, yaml) => {
    const fromFile = (() => {
      try {
        parseConfigFile(yaml, 'config.yml');
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(fromFile).toMatch(/^config\.yml: ".+" is not supported by Ensign \(.+\); remove it$/);
    expect(() => resolveConfig({}, { [variable]: '1' })).toThrow(
      new ConfigError(fromFile!.replace(/^config\.yml:/, `${variable}:`)),
    );
  });

  it('name the Flipt v1.61 cache and Prometheus keys Ensign has no behaviour for, and why', () => {
    const refusal = (yaml: string) => {
      try {
        parseConfigFile(yaml, 'config.yml');
      } catch (error) {
        return (error as Error).message;
      }
    };
    const noRedis = 'Ensign has no Redis cache: evaluations always run on in-memory snapshots';
    expect(refusal('cache:\n  redis:\n    prefix: flipt\n')).toBe(
      `config.yml: "cache.redis.prefix" is not supported by Ensign (${noRedis}); remove it`,
    );
    expect(refusal('cache:\n  redis:\n    mode: cluster\n')).toBe(
      'config.yml: "cache.redis.mode" is not supported by Ensign (Ensign has no Redis cache, single or cluster: evaluations always run on in-memory snapshots); remove it',
    );
    const noPrometheus = 'analytics are kept in the server database, not read from Prometheus';
    expect(refusal('analytics:\n  storage:\n    prometheus:\n      url: http://prom:9090\n')).toBe(
      `config.yml: "analytics.storage.prometheus.url" is not supported by Ensign (${noPrometheus}); remove it`,
    );
    expect(refusal('analytics:\n  storage:\n    prometheus:\n      headers:\n        Authorization: Bearer x\n')).toBe(
      `config.yml: "analytics.storage.prometheus.headers" is not supported by Ensign (${noPrometheus}); remove it`,
    );
    expect(() => resolveConfig({}, { FLIPT_CACHE_REDIS_PREFIX: 'flipt' })).toThrow(
      new ConfigError(
        `FLIPT_CACHE_REDIS_PREFIX: "cache.redis.prefix" is not supported by Ensign (${noRedis}); remove it`,
      ),
    );
    expect(() => resolveConfig({}, { FLIPT_ANALYTICS_STORAGE_PROMETHEUS_HEADERS_AUTHORIZATION: 'Bearer x' })).toThrow(
      new ConfigError(
        `FLIPT_ANALYTICS_STORAGE_PROMETHEUS_HEADERS_AUTHORIZATION: "analytics.storage.prometheus.headers" is not supported by Ensign (${noPrometheus}); remove it`,
      ),
    );
    // Turned on, they stop the start too; turned off (Flipt's default) they say what Ensign does anyway.
    expect(refusal('cache:\n  enabled: true\n')).toMatch(/^config\.yml: cache\.enabled must be false: /);
    expect(() => resolveConfig({}, { FLIPT_ANALYTICS_STORAGE_PROMETHEUS_ENABLED: 'true' })).toThrow(
      /^FLIPT_ANALYTICS_STORAGE_PROMETHEUS_ENABLED must be false: analytics are kept in the server database/,
    );
    expect(refusal('cache:\n  enabled: false\nanalytics:\n  storage:\n    prometheus:\n      enabled: false\n')).toBe(
      undefined,
    );
  });

  it('warn about one that names no key, and go on', async () => {
    const { keys, stderr } = await ensignConfig({ FLIPT_DB_URLL: 'postgres://typo', FLIPT_LOG_LEVEL: 'warn' });
    expect(stderr).toBe('ensign: warning: FLIPT_DB_URLL is not a Flipt setting Ensign knows: ignored\n');
    expect(keys.get('db.url')?.source).toBe('default');
    expect(keys.get('log.level')?.value).toBe('warn');
  });
});

describe('${VAR} in config values', () => {
  it('replaces a value that is exactly ${NAME} by that variable, read as the key reads it', async () => {
    const file = configFile(
      [
        'db:\n  url: ${DB_URL}',
        'server:\n  http_port: ${HTTP_PORT}',
        'cors:\n  enabled: ${CORS}\n  allowed_origins: ["${ORIGIN}", "https://${ORIGIN}"]',
        'authentication:\n  methods:\n    oidc:\n      providers:\n        google:\n          client_secret: ${GOOGLE_SECRET}',
      ].join('\n'),
    );
    const env = {
      DB_URL: 'postgres://p/flags',
      HTTP_PORT: '9095',
      CORS: 'true',
      ORIGIN: 'https://app.example',
      GOOGLE_SECRET: 'gs',
    };
    const { config } = resolveConfig({ config: file }, env);
    expect(config.db.url).toBe('postgres://p/flags');
    expect(config.server.port).toBe(9095);
    expect(config.cors.enabled).toBe(true);
    // Only a whole value is a reference.
    expect(config.cors.allowedOrigins).toEqual(['https://app.example', 'https://${ORIGIN}']);
    expect(config.authentication.methods?.oidc?.providers?.google?.client_secret).toBe('gs');
    const { keys } = await ensignConfig(env, '--config', file);
    expect(keys.get('authentication.methods.oidc.providers.google.client_secret')).toEqual({
      value: '******',
      source: `file ${file}`,
    });
  });

  it('stops the start on a missing variable or a bad value, naming both', () => {
    const file = configFile('db:\n  url: ${DB_URL}\n');
    expect(() => resolveConfig({ config: file }, {})).toThrow(
      new ConfigError(`${file}: db.url is \${DB_URL}, but DB_URL is not set`),
    );
    const port = configFile('server:\n  http_port: ${HTTP_PORT}\n');
    expect(() => resolveConfig({ config: port }, { HTTP_PORT: 'x' })).toThrow(
      new ConfigError(`${port}: server.http_port (\${HTTP_PORT}) must be a port number from 0 to 65535 (got "x")`),
    );
  });
});
