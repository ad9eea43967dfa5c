import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { acceptedKeys, loadConfig, UNSUPPORTED_KEYS, type Config } from '../../server/config/index.js';
import { resolveAuthSettings } from '../../server/auth/settings.js';
import { selfSignedCertificate } from '../support/tls.js';

const dir = mkdtempSync(join(tmpdir(), 'ensign-keys-'));
const { certFile, keyFile } = selfSignedCertificate(dir);
const pemFile = join(dir, 'public.pem');
writeFileSync(pemFile, '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA\n-----END PUBLIC KEY-----\n');

let files = 0;
function load(file: object): Config {
  const path = join(dir, `config-${files++}.yml`);
  writeFileSync(path, stringify(file));
  return loadConfig({ config: path }, {});
}

const auth = (config: Config) => resolveAuthSettings(config.authentication);
const oidc = (provider: object, method: object = {}) => ({
  authentication: {
    session: { domain: 'example.com' },
    methods: {
      oidc: {
        ...method,
        enabled: true,
        providers: {
          google: {
            issuer_url: 'https://a',
            client_id: 'c',
            client_secret: 's',
            redirect_address: 'https://r',
            ...provider,
          },
        },
      },
    },
  },
});
const github = (fields: object) => ({
  authentication: {
    session: { domain: 'example.com' },
    methods: {
      github: { enabled: true, client_id: 'c', client_secret: 's', redirect_address: 'https://r', ...fields },
    },
  },
});
const methods = (section: object) => ({ authentication: { methods: section } });

/**
 * For every accepted key: a file that sets it, the file without it (default: empty) and what the
 * server resolves from it, which must differ. Keys that only take one value prove themselves by
 * refusing any other (`refused`).
 */
interface Effect {
  set: object;
  without?: object;
  see?: (config: Config) => unknown;
  refused?: object;
  /** Accepted because Flipt accepts it, and without effect there too: `see` gives the same with and without it. */
  inert?: true;
}

/** storage.git: every key is read into the git storage's settings (with a repository to follow). */
function gitKeys(): Record<string, Effect> {
  const git = (fields: object) => ({
    storage: { type: 'git', git: { repository: 'https://git.example.com/flags.git', ...fields } },
  });
  const see = (c: Config) => c.storage.git;
  const ssh = (fields: object) => git({ authentication: { ssh: { private_key_path: pemFile, ...fields } } });
  return {
    'storage.git.repository': {
      set: git({ repository: 'file:///srv/flags.git' }),
      without: git({}),
      see,
    },
    'storage.git.ref': { set: git({ ref: 'production' }), without: git({}), see },
    'storage.git.ref_type': { set: git({ ref_type: 'semver', ref: '^1.0.0' }), without: git({ ref: '^1.0.0' }), see },
    'storage.git.directory': { set: git({ directory: 'flags' }), without: git({}), see },
    'storage.git.poll_interval': { set: git({ poll_interval: '5s' }), without: git({}), see },
    'storage.git.ca_cert_path': { set: git({ ca_cert_path: pemFile }), without: git({}), see },
    'storage.git.ca_cert_bytes': { set: git({ ca_cert_bytes: 'PEM' }), without: git({}), see },
    'storage.git.insecure_skip_tls': { set: git({ insecure_skip_tls: true }), without: git({}), see },
    'storage.git.authentication.basic.username': {
      set: git({ authentication: { basic: { username: 'u', password: 'p' } } }),
      without: git({ authentication: { basic: { username: 'v', password: 'p' } } }),
      see,
    },
    'storage.git.authentication.basic.password': {
      set: git({ authentication: { basic: { username: 'u', password: 'p' } } }),
      without: git({ authentication: { basic: { username: 'u', password: 'q' } } }),
      see,
    },
    'storage.git.authentication.token.access_token': {
      set: git({ authentication: { token: { access_token: 't' } } }),
      without: git({}),
      see,
    },
    'storage.git.authentication.ssh.user': { set: ssh({ user: 'deploy' }), without: ssh({}), see },
    'storage.git.authentication.ssh.password': { set: ssh({ password: 'pass' }), without: ssh({}), see },
    'storage.git.authentication.ssh.private_key_bytes': {
      set: git({ authentication: { ssh: { private_key_bytes: 'KEY' } } }),
      without: ssh({}),
      see,
    },
    'storage.git.authentication.ssh.private_key_path': { set: ssh({}), without: git({}), see },
    'storage.git.authentication.ssh.insecure_ignore_host_key': {
      set: ssh({ insecure_ignore_host_key: true }),
      without: ssh({}),
      see,
    },
  };
}

/** server.rate_limits: requests per client address and window. */
function rateLimitKeys(): Record<string, Effect> {
  const limits = (fields: object) => ({ server: { rate_limits: fields } });
  const see = (c: Config) => c.rateLimits;
  return Object.fromEntries(
    (
      [
        ['window', '10s'],
        ['login', 3],
        ['token_creation', 4],
        ['survey_uploads', 5],
        ['survey_writes', 6],
        ['evaluation', 7],
      ] as const
    ).map(([key, value]) => [`server.rate_limits.${key}`, { set: limits({ [key]: value }), see }]),
  );
}

const EFFECTS: Record<string, Effect> = {
  version: { set: { version: '1.0' }, refused: { version: '2.0' } },
  'server.protocol': {
    set: { server: { protocol: 'https', cert_file: certFile, cert_key: keyFile } },
    see: (c) => c.server.protocol,
  },
  'server.host': { set: { server: { host: '127.0.0.9' } }, see: (c) => c.server.host },
  'server.http_port': { set: { server: { http_port: 9123 } }, see: (c) => c.server.port },
  'server.https_port': {
    set: { server: { protocol: 'https', https_port: 9443, cert_file: certFile, cert_key: keyFile } },
    without: { server: { protocol: 'https', cert_file: certFile, cert_key: keyFile } },
    see: (c) => c.server.port,
  },
  'server.cert_file': {
    set: { server: { protocol: 'https', cert_file: certFile, cert_key: keyFile } },
    see: (c) => c.server.tls?.cert.toString(),
  },
  'server.cert_key': {
    set: { server: { protocol: 'https', cert_file: certFile, cert_key: keyFile } },
    see: (c) => c.server.tls?.key.toString(),
  },
  'server.workers': { set: { server: { workers: 3 } }, see: (c) => c.server.workers },
  'server.shutdown_timeout': { set: { server: { shutdown_timeout: '5s' } }, see: (c) => c.server.shutdownTimeoutMs },
  'server.grpc_port': {
    set: { server: { grpc_port: 9123 } },
    see: (c) => c.server.grpcPort,
    refused: { server: { grpc_port: 70000 } },
  },
  'db.url': { set: { db: { url: 'file:/tmp/other.db' } }, see: (c) => c.db.url },
  'storage.type': {
    set: { storage: { type: 'local', local: { path: dir } } },
    without: { storage: { local: { path: dir } } },
    see: (c) => c.storage.type,
  },
  'storage.read_only': { set: { storage: { read_only: true } }, see: (c) => c.storage.readOnly },
  'storage.local.path': { set: { storage: { local: { path: dir } } }, see: (c) => c.storage.localPath },
  ...gitKeys(),
  ...rateLimitKeys(),
  'authentication.exclude.ofrep': {
    set: { authentication: { exclude: { ofrep: true } } },
    see: (c) => auth(c).exclude,
  },
  'cors.enabled': { set: { cors: { enabled: true } }, see: (c) => c.cors.enabled },
  'cors.allowed_origins': {
    set: { cors: { allowed_origins: ['https://shop.test'] } },
    see: (c) => c.cors.allowedOrigins,
  },
  'cors.allowed_headers': { set: { cors: { allowed_headers: ['X-Custom'] } }, see: (c) => c.cors.allowedHeaders },
  'meta.check_for_updates': {
    set: { meta: { check_for_updates: false } },
    refused: { meta: { check_for_updates: true } },
  },
  'meta.telemetry_enabled': {
    set: { meta: { telemetry_enabled: false } },
    refused: { meta: { telemetry_enabled: true } },
  },
  'surveys.upload_quota_mb': { set: { surveys: { upload_quota_mb: 5 } }, see: (c) => c.surveys.uploadQuotaBytes },
  'surveys.webhooks_allow_internal_addresses': {
    set: { surveys: { webhooks_allow_internal_addresses: true } },
    see: (c) => c.surveys.webhooksAllowInternalAddresses,
  },
  'surveys.max_people': { set: { surveys: { max_people: 5 } }, see: (c) => c.surveys.maxPeople },
  'authentication.required': { set: { authentication: { required: true } }, see: (c) => auth(c).required },
  'authentication.exclude.management': {
    set: { authentication: { exclude: { management: true } } },
    see: (c) => auth(c).exclude,
  },
  'authentication.exclude.evaluation': {
    set: { authentication: { exclude: { evaluation: true } } },
    see: (c) => auth(c).exclude,
  },
  'authentication.session.domain': {
    set: { authentication: { session: { domain: 'flags.example.com' } } },
    see: (c) => auth(c).session.cookieDomain,
  },
  'authentication.session.secure': {
    set: { authentication: { session: { secure: true } } },
    see: (c) => auth(c).session.secure,
  },
  'authentication.session.token_lifetime': {
    set: { authentication: { session: { token_lifetime: '1h' } } },
    see: (c) => auth(c).session.tokenLifetimeMs,
  },
  'authentication.session.state_lifetime': {
    set: { authentication: { session: { state_lifetime: '1m' } } },
    see: (c) => auth(c).session.stateLifetimeMs,
  },
  'authentication.session.csrf.key': {
    set: { authentication: { session: { csrf: { key: 'k'.repeat(32) } } } },
    see: (c) => auth(c).session.csrfKey,
  },
  'authentication.session.csrf.trusted_origins': {
    set: { authentication: { session: { csrf: { trusted_origins: ['https://console.example.com'] } } } },
    see: (c) => auth(c).session.csrfTrustedOrigins,
  },
  // Flipt v1.61 reads it into its configuration and uses it nowhere (CrossOriginProtection has no such option).
  'authentication.session.csrf.secure': {
    set: { authentication: { session: { csrf: { key: 'k'.repeat(32), secure: false } } } },
    without: { authentication: { session: { csrf: { key: 'k'.repeat(32) } } } },
    see: (c) => auth(c),
    inert: true,
  },
  'authentication.methods.token.enabled': {
    set: methods({ token: { enabled: true } }),
    see: (c) => auth(c).token.enabled,
  },
  'authentication.methods.token.cleanup.interval': {
    set: methods({ token: { enabled: true, cleanup: { interval: '2h' } } }),
    without: methods({ token: { enabled: true, cleanup: {} } }),
    see: (c) => auth(c).cleanup,
  },
  'authentication.methods.token.cleanup.grace_period': {
    set: methods({ token: { enabled: true, cleanup: { grace_period: '2h' } } }),
    without: methods({ token: { enabled: true, cleanup: {} } }),
    see: (c) => auth(c).cleanup,
  },
  'authentication.methods.token.bootstrap.token': {
    set: methods({ token: { bootstrap: { token: 'secret' } } }),
    see: (c) => auth(c).token.bootstrap,
  },
  'authentication.methods.token.bootstrap.expiration': {
    set: methods({ token: { bootstrap: { expiration: '1h' } } }),
    see: (c) => auth(c).token.bootstrap,
  },
  'authentication.methods.oidc.enabled': { set: oidc({}), without: {}, see: (c) => auth(c).oidc.enabled },
  'authentication.methods.oidc.cleanup.interval': {
    set: oidc({}, { cleanup: { interval: '3h' } }),
    without: oidc({}),
    see: (c) => auth(c).cleanup,
  },
  'authentication.methods.oidc.cleanup.grace_period': {
    set: oidc({}, { cleanup: { grace_period: '3h' } }),
    without: oidc({}),
    see: (c) => auth(c).cleanup,
  },
  'authentication.methods.oidc.providers.*.issuer_url': {
    set: oidc({ issuer_url: 'https://b' }),
    without: oidc({}),
    see: (c) => auth(c).oidc.providers,
  },
  'authentication.methods.oidc.providers.*.client_id': {
    set: oidc({ client_id: 'd' }),
    without: oidc({}),
    see: (c) => auth(c).oidc.providers,
  },
  'authentication.methods.oidc.providers.*.client_secret': {
    set: oidc({ client_secret: 't' }),
    without: oidc({}),
    see: (c) => auth(c).oidc.providers,
  },
  'authentication.methods.oidc.providers.*.redirect_address': {
    set: oidc({ redirect_address: 'https://q' }),
    without: oidc({}),
    see: (c) => auth(c).oidc.providers,
  },
  'authentication.methods.oidc.providers.*.scopes': {
    set: oidc({ scopes: ['email'] }),
    without: oidc({}),
    see: (c) => auth(c).oidc.providers,
  },
  'authentication.methods.oidc.providers.*.nonce': {
    set: oidc({ nonce: 'static' }),
    without: oidc({}),
    see: (c) => auth(c).oidc.providers.google.nonce,
  },
  'authentication.methods.oidc.providers.*.use_pkce': {
    set: oidc({ use_pkce: true }),
    without: oidc({}),
    see: (c) => auth(c).oidc.providers,
  },
  'authentication.methods.oidc.email_matches': {
    set: methods({ oidc: { email_matches: ['@example\\.com$'] } }),
    see: (c) => String(auth(c).oidc.emailMatches),
  },
  'authentication.methods.github.enabled': { set: github({}), see: (c) => auth(c).github.enabled },
  'authentication.methods.github.cleanup.interval': {
    set: github({ cleanup: { interval: '3h' } }),
    without: github({}),
    see: (c) => auth(c).cleanup,
  },
  'authentication.methods.github.cleanup.grace_period': {
    set: github({ cleanup: { grace_period: '3h' } }),
    without: github({}),
    see: (c) => auth(c).cleanup,
  },
  'authentication.methods.github.client_id': {
    set: github({ client_id: 'x' }),
    without: github({}),
    see: (c) => auth(c).github,
  },
  'authentication.methods.github.client_secret': {
    set: github({ client_secret: 'x' }),
    without: github({}),
    see: (c) => auth(c).github,
  },
  'authentication.methods.github.redirect_address': {
    set: github({ redirect_address: 'https://x' }),
    without: github({}),
    see: (c) => auth(c).github,
  },
  'authentication.methods.github.scopes': {
    set: github({ scopes: ['read:org'] }),
    without: github({}),
    see: (c) => auth(c).github,
  },
  'authentication.methods.github.server_url': {
    set: github({ server_url: 'https://ghe.example.com' }),
    without: github({}),
    see: (c) => auth(c).github,
  },
  'authentication.methods.github.api_url': {
    set: github({ api_url: 'https://ghe.example.com/api' }),
    without: github({}),
    see: (c) => auth(c).github,
  },
  'authentication.methods.github.allowed_organizations': {
    set: github({ allowed_organizations: ['acme'] }),
    without: github({}),
    see: (c) => auth(c).github,
  },
  'authentication.methods.github.allowed_teams': {
    set: github({ allowed_organizations: ['acme'], allowed_teams: { acme: ['ops'] } }),
    without: github({ allowed_organizations: ['acme'] }),
    see: (c) => auth(c).github,
  },
  'authentication.methods.jwt.enabled': {
    set: methods({ jwt: { enabled: true, jwks_url: 'https://a/jwks' } }),
    without: methods({ jwt: { jwks_url: 'https://a/jwks' } }),
    see: (c) => auth(c).jwt.enabled,
  },
  'authentication.methods.jwt.jwks_url': {
    set: methods({ jwt: { jwks_url: 'https://a/jwks' } }),
    see: (c) => auth(c).jwt.jwksUrl,
  },
  'authentication.methods.jwt.public_key_file': {
    set: methods({ jwt: { enabled: true, public_key_file: pemFile } }),
    without: methods({ jwt: { enabled: true, jwks_url: 'https://a/jwks' } }),
    see: (c) => auth(c).jwt.publicKeyPem,
  },
  'authentication.methods.jwt.validate_claims.issuer': {
    set: methods({ jwt: { validate_claims: { issuer: 'i' } } }),
    see: (c) => auth(c).jwt.issuer,
  },
  'authentication.methods.jwt.validate_claims.subject': {
    set: methods({ jwt: { validate_claims: { subject: 's' } } }),
    see: (c) => auth(c).jwt.subject,
  },
  'authentication.methods.kubernetes.enabled': {
    set: methods({ kubernetes: { enabled: true, ca_path: pemFile } }),
    without: methods({ kubernetes: { ca_path: pemFile } }),
    see: (c) => auth(c).kubernetes.enabled,
  },
  'authentication.methods.kubernetes.discovery_url': {
    set: methods({ kubernetes: { discovery_url: 'https://cluster.example' } }),
    see: (c) => auth(c).kubernetes.discoveryUrl,
  },
  'authentication.methods.kubernetes.ca_path': {
    set: methods({ kubernetes: { enabled: true, ca_path: pemFile } }),
    without: methods({ kubernetes: { enabled: false } }),
    see: (c) => auth(c).kubernetes.caPem,
  },
  'authentication.methods.kubernetes.service_account_token_path': {
    set: methods({ kubernetes: { service_account_token_path: '/tmp/token' } }),
    see: (c) => auth(c).kubernetes.serviceAccountTokenPath,
  },
  'authentication.methods.kubernetes.audiences': {
    set: methods({ kubernetes: { audiences: ['ensign'] } }),
    see: (c) => auth(c).kubernetes.audiences,
  },
  'authentication.methods.kubernetes.cleanup.interval': {
    set: methods({ kubernetes: { enabled: true, ca_path: pemFile, cleanup: { interval: '2h' } } }),
    without: methods({ kubernetes: { enabled: true, ca_path: pemFile, cleanup: {} } }),
    see: (c) => auth(c).cleanup,
  },
  'authentication.methods.kubernetes.cleanup.grace_period': {
    set: methods({ kubernetes: { enabled: true, ca_path: pemFile, cleanup: { grace_period: '2h' } } }),
    without: methods({ kubernetes: { enabled: true, ca_path: pemFile, cleanup: {} } }),
    see: (c) => auth(c).cleanup,
  },
  'authentication.methods.jwt.validate_claims.audiences': {
    set: methods({ jwt: { validate_claims: { audiences: ['a'] } } }),
    see: (c) => auth(c).jwt.audiences,
  },
  'ui.enabled': { set: { ui: { enabled: false } }, see: (c) => c.ui.enabled },
  'ui.default_theme': { set: { ui: { default_theme: 'dark' } }, see: (c) => c.ui.defaultTheme },
  'ui.topbar.color': { set: { ui: { topbar: { color: '#f00' } } }, see: (c) => c.ui.topbar },
  'ui.topbar.label': { set: { ui: { topbar: { label: 'Prod' } } }, see: (c) => c.ui.topbar },
  'ui.banner.text': { set: { ui: { banner: { text: 'Hello' } } }, see: (c) => c.ui.banner },
  'ui.banner.link': {
    set: { ui: { banner: { text: 'Hello', link: 'https://a' } } },
    without: { ui: { banner: { text: 'Hello' } } },
    see: (c) => c.ui.banner,
  },
  'ui.banner.link_text': {
    set: { ui: { banner: { text: 'Hello', link_text: 'More' } } },
    without: { ui: { banner: { text: 'Hello' } } },
    see: (c) => c.ui.banner,
  },
  'ui.survey_environment': { set: { ui: { survey_environment: 'env' } }, see: (c) => c.ui.surveyEnvironmentId },
  'analytics.enabled': { set: { analytics: { enabled: false } }, see: (c) => c.analytics.enabled },
  'analytics.storage.prometheus.enabled': {
    set: { analytics: { storage: { prometheus: { enabled: false } } } },
    refused: { analytics: { storage: { prometheus: { enabled: true } } } },
  },
  'cache.enabled': { set: { cache: { enabled: false } }, refused: { cache: { enabled: true } } },
  'analytics.buffer.flush_period': {
    set: { analytics: { buffer: { flush_period: '10s' } } },
    see: (c) => c.analytics.flushIntervalMs,
  },
  'audit.sinks.log.enabled': { set: { audit: { sinks: { log: { enabled: true } } } }, see: (c) => c.audit.log.enabled },
  'audit.sinks.log.file': { set: { audit: { sinks: { log: { file: '/tmp/a.log' } } } }, see: (c) => c.audit.log.file },
  'audit.sinks.log.encoding': {
    set: { audit: { sinks: { log: { encoding: 'console' } } } },
    see: (c) => c.audit.log.encoding,
  },
  'audit.sinks.webhook.enabled': {
    set: { audit: { sinks: { webhook: { enabled: true, url: 'http://x' } } } },
    without: { audit: { sinks: { webhook: { url: 'http://x' } } } },
    see: (c) => c.audit.webhook.enabled,
  },
  'audit.sinks.webhook.url': {
    set: { audit: { sinks: { webhook: { url: 'http://x' } } } },
    see: (c) => c.audit.webhook.url,
  },
  'audit.sinks.webhook.max_backoff_duration': {
    set: { audit: { sinks: { webhook: { max_backoff_duration: '1m' } } } },
    see: (c) => c.audit.webhook.maxBackoffMs,
  },
  'audit.sinks.webhook.signing_secret': {
    set: { audit: { sinks: { webhook: { signing_secret: 's' } } } },
    see: (c) => c.audit.webhook.signingSecret,
  },
  'audit.sinks.webhook.templates': {
    set: { audit: { sinks: { webhook: { templates: [{ url: 'http://x', body: '{{ toJson .Payload }}' }] } } } },
    see: (c) => c.audit.webhook.templates,
  },
  'audit.buffer.capacity': { set: { audit: { buffer: { capacity: 5 } } }, see: (c) => c.audit.buffer.capacity },
  'audit.buffer.flush_period': {
    set: { audit: { buffer: { flush_period: '3m' } } },
    see: (c) => c.audit.buffer.flushPeriodMs,
  },
  'audit.events': { set: { audit: { events: ['flag:*'] } }, see: (c) => c.audit.events },
  'audit.history.retention': {
    set: { audit: { history: { retention: '48h' } } },
    see: (c) => c.audit.historyRetentionMs,
  },
  'log.level': { set: { log: { level: 'debug' } }, see: (c) => c.log.level },
  'log.encoding': { set: { log: { encoding: 'json' } }, see: (c) => c.log.encoding },
  'log.file': { set: { log: { file: join(dir, 'ensign.log') } }, see: (c) => c.log.file },
  'surveys.enabled': { set: { surveys: { enabled: false } }, see: (c) => c.surveys.enabled },
  'surveys.seed_file': { set: { surveys: { seed_file: 'seed.yml' } }, see: (c) => c.surveys.seedFile },
  'surveys.demo': { set: { surveys: { demo: false } }, see: (c) => c.surveys.demo },
  'surveys.upload_dir': { set: { surveys: { upload_dir: '/tmp/up' } }, see: (c) => c.surveys.uploadDir },
  'surveys.signing_secret': { set: { surveys: { signing_secret: 's' } }, see: (c) => c.surveys.signingSecret },
  'metrics.enabled': { set: { metrics: { enabled: false } }, see: (c) => c.metrics.enabled },
  'metrics.exporter': { set: { metrics: { exporter: 'prometheus' } }, refused: { metrics: { exporter: 'otlp' } } },
  'tracing.enabled': { set: { tracing: { enabled: true } }, see: (c) => c.tracing.enabled },
  'tracing.exporter': { set: { tracing: { exporter: 'otlp' } }, refused: { tracing: { exporter: 'jaeger' } } },
  'tracing.sampling_ratio': { set: { tracing: { sampling_ratio: 0.5 } }, see: (c) => c.tracing.samplingRatio },
  'tracing.otlp.endpoint': {
    set: { tracing: { otlp: { endpoint: 'collector:4318' } } },
    see: (c) => c.tracing.endpoint,
  },
  'tracing.otlp.headers': {
    set: { tracing: { otlp: { headers: { authorization: 'Bearer x' } } } },
    see: (c) => c.tracing.headers,
  },
};

/** The nested object that sets `path` (with `*` as a name) to a value of the right kind. */
function setting(path: string): object {
  return path
    .replaceAll('*', 'google')
    .split('.')
    .reduceRight<unknown>((value, name) => ({ [name]: value }), 'x') as object;
}

describe('every config key has an effect or is refused (or, as in Flipt, is inert)', () => {
  const keys = acceptedKeys();

  /** The unsupported key that refuses `key`: itself or the section it is in. */
  const refusedAs = (key: string) =>
    Object.keys(UNSUPPORTED_KEYS).find((refused) => key === refused || key.startsWith(`${refused}.`));

  it('knows what each accepted key does', () => {
    const unaccounted = keys.filter((key) => !(key in EFFECTS) && !refusedAs(key));
    expect(unaccounted).toEqual([]);
  });

  for (const key of keys.filter((key) => refusedAs(key))) {
    it(`refuses ${key}, naming it`, () => {
      const named = refusedAs(key)!.replaceAll('*', 'google');
      expect(() => load(setting(key))).toThrow(
        new RegExp(`^[^ ]+: "${named.replaceAll('.', '\\.')}" is not supported by Ensign \\(`),
      );
    });
  }

  for (const [key, effect] of Object.entries(EFFECTS)) {
    it(`honours ${key}`, () => {
      expect(keys).toContain(key);
      if (effect.refused) {
        load(effect.set);
        expect(() => load(effect.refused!)).toThrow(key.split('.').pop()!);
        return;
      }
      const see = effect.see!;
      if (effect.inert) {
        expect(see(load(effect.set))).toEqual(see(load(effect.without ?? {})));
        return;
      }
      expect(see(load(effect.set))).not.toEqual(see(load(effect.without ?? {})));
    });
  }
});
