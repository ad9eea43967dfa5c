import type { FastifyInstance } from 'fastify';
import packageJson from '../../../package.json' with { type: 'json' };
import type { AppContext } from '../../context.js';
import type { AuthenticationFileConfig, Config } from '../../config/index.js';
import { redactUrl } from '../declarative/git.js';
import { RouteTable } from '../../route-definitions.js';
import { parse, prettyPrinting } from './http.js';

// Defined by tsup at build time; absent when the sources run directly (vitest).
declare const __ENSIGN_COMMIT__: string | undefined;
declare const __ENSIGN_BUILD_DATE__: string | undefined;

const commit = typeof __ENSIGN_COMMIT__ === 'string' ? __ENSIGN_COMMIT__ : '';
const buildDate = typeof __ENSIGN_BUILD_DATE__ === 'string' ? __ENSIGN_BUILD_DATE__ : '';

/** Go's names for the platforms, as Flipt reports them. */
const GO_OS: Partial<Record<NodeJS.Platform, string>> = { win32: 'windows' };
const GO_ARCH: Record<string, string> = { x64: 'amd64', ia32: '386', arm64: 'arm64', arm: 'arm' };

export interface MetaInfo {
  version: string;
  commit?: string;
  buildDate?: string;
  updateAvailable: boolean;
  isRelease: boolean;
  os: string;
  arch: string;
  authentication: { required: boolean };
  storage: StorageInfo;
  analytics: { enabled?: true };
  ui: { theme: string; topbarColor?: string };
}

interface StorageInfo {
  type: Config['storage']['type'];
  readOnly?: boolean;
  git?: { ref: string; repository: string };
}

/**
 * Flipt's build info: string fields are omitted when empty; the booleans are always present. The
 * `authentication`, `storage`, `analytics` and `ui` keys are what Flipt added from v1.53 on, when
 * its console stopped reading `/meta/config`; Flipt always writes `analytics` and `ui`, with Go's
 * omitempty inside (`"analytics": {}` when off, `"ui": {"theme": "system"}` by default).
 */
export function metaInfo(config: Config): MetaInfo {
  const version = `v${packageJson.version}`;
  return {
    version,
    ...(commit && { commit }),
    ...(buildDate && { buildDate }),
    updateAvailable: false,
    // A pre-release (`v1.2.0-rc.1`) is not a release, as Flipt decides for its own tags.
    isRelease: !version.includes('-'),
    os: GO_OS[process.platform] ?? process.platform,
    arch: GO_ARCH[process.arch] ?? process.arch,
    authentication: { required: config.authentication.required === true },
    storage: storageInfo(config),
    analytics: config.analytics.enabled ? { enabled: true } : {},
    ui: {
      theme: config.ui.defaultTheme,
      ...(config.ui.topbar.color && { topbarColor: config.ui.topbar.color }),
    },
  };
}

/**
 * Local and git storage are always read-only; otherwise `readOnly` only appears when the file sets
 * it. Git storage names its ref and repository (without a password written into the URL).
 */
function storageInfo(config: Config): StorageInfo {
  const { type, git } = config.storage;
  const readOnly = type === 'database' ? config.storage.readOnly : true;
  return {
    type,
    ...(readOnly !== undefined && { readOnly }),
    ...(git && { git: { ref: git.ref, repository: redactUrl(git.repository) } }),
  };
}

const MS_TO_NS = 1_000_000;
const AUTH_METHODS = ['token', 'oidc', 'github', 'kubernetes', 'jwt', 'cloud'] as const;

/**
 * The configuration as Flipt's `/meta/config` shows it: every section key present, durations as
 * integer nanoseconds, never a secret. `ui.banner` and `ui.surveyEnvironment` are Ensign's own.
 */
export function metaConfig(config: Config): Record<string, unknown> {
  const ui: Record<string, unknown> = {
    defaultTheme: config.ui.defaultTheme,
    topbar: { color: config.ui.topbar.color, label: config.ui.topbar.label },
  };
  if (config.ui.banner) {
    const { text, link, linkText } = config.ui.banner;
    ui.banner = { text, ...(link && { link }), ...(linkText && { linkText }) };
  }
  if (config.ui.surveyEnvironmentId) ui.surveyEnvironment = config.ui.surveyEnvironmentId;

  return {
    audit: {},
    authentication: authenticationSection(config.authentication),
    authorization: {},
    cache: {},
    cloud: {},
    cors: { enabled: config.cors.enabled, allowedOrigins: config.cors.allowedOrigins },
    db: {},
    diagnostics: {},
    experimental: {},
    log: { level: config.log.level.toUpperCase(), encoding: config.log.encoding ?? 'console' },
    meta: {},
    analytics: {
      storage: { clickhouse: config.analytics.enabled ? { enabled: true } : {} },
      buffer: { flushPeriod: Math.round(config.analytics.flushIntervalMs * MS_TO_NS) },
    },
    server: { protocol: 'http', host: config.server.host, httpPort: config.server.port },
    storage: storageInfo(config),
    metrics: {},
    tracing: {},
    ui,
  };
}

function authenticationSection(auth: AuthenticationFileConfig): Record<string, unknown> {
  const exclude = Object.fromEntries(Object.entries(auth.exclude ?? {}).filter(([, value]) => value === true));
  const session = auth.session ?? {};
  const methods = Object.fromEntries(
    AUTH_METHODS.map((name) => {
      const method = auth.methods?.[name] as { enabled?: unknown } | undefined;
      return [name, { enabled: method?.enabled === true }];
    }),
  );
  return {
    required: auth.required === true,
    exclude,
    session: {
      ...(session.domain && { domain: session.domain }),
      ...(session.secure && { secure: true }),
      csrf: {},
    },
    methods,
  };
}

export async function metaRoutes(app: FastifyInstance, { config, git }: AppContext): Promise<void> {
  prettyPrinting(app);
  const info = metaInfo(config);
  const routes = new RouteTable(app, parse);
  routes.add({ method: 'GET', url: '/meta/info', handler: () => info });
  routes.add({ method: 'GET', url: '/meta/config', handler: () => metaConfig(config) });
  // Ensign's own (docs/compatibility.md): the branches and tags the console's ref selector offers.
  if (git) routes.add({ method: 'GET', url: '/internal/v1/git/references', handler: () => git.listReferences() });
}
