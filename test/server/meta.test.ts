import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { startTestApp, type TestApp } from './support.js';
import { defaultConfig } from '../../server/config/index.js';
import { metaConfig } from '../../server/flipt/routes/meta.js';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

const SECTIONS = [
  'audit',
  'authentication',
  'authorization',
  'cache',
  'cloud',
  'cors',
  'db',
  'diagnostics',
  'experimental',
  'log',
  'meta',
  'analytics',
  'server',
  'storage',
  'metrics',
  'tracing',
  'ui',
];

describe('/meta with the default configuration', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite');
  });
  afterAll(() => t.close());

  it('GET /meta/info reports the package version and omits empty build fields', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/meta/info' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    const info = response.json();
    expect(info.version).toBe(`v${version}`);
    expect(info.updateAvailable).toBe(false);
    expect(info.isRelease).toBe(!version.includes('-'));
    // The sources run unbuilt here, so there is no commit or build date, and Go's omitempty drops them.
    expect(info).not.toHaveProperty('commit');
    expect(info).not.toHaveProperty('buildDate');
    expect(info).not.toHaveProperty('goVersion');
    expect(info.os).toBe(process.platform === 'win32' ? 'windows' : process.platform);
    expect(typeof info.arch).toBe('string');
    // What Flipt's /meta/info carries since v1.53.
    expect(info.authentication).toEqual({ required: false });
    expect(info.storage).toEqual({ type: 'database' });
    expect(info.analytics).toEqual({ enabled: true });
    // Flipt v1.61 always writes ui, with its default theme.
    expect(info.ui).toEqual({ theme: 'system' });
  });

  it('indents the answer with ?pretty, as Flipt does', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/meta/info?pretty' });
    expect(response.body).toBe(JSON.stringify(response.json(), null, 2));
  });

  it('GET /meta/config has every section and the defaults the console reads', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/meta/config' });
    expect(response.statusCode).toBe(200);
    const config = response.json();
    expect(Object.keys(config).sort()).toEqual([...SECTIONS].sort());
    expect(config.storage).toEqual({ type: 'database' });
    expect(config.ui).toEqual({ defaultTheme: 'system', topbar: { color: '', label: '' } });
    expect(config.analytics.storage).toEqual({ clickhouse: { enabled: true } });
    expect(config.authentication.required).toBe(false);
    expect(config.authentication.methods.token).toEqual({ enabled: false });
  });
});

describe('/meta/config with a configured server', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite', (config) => {
      config.storage.readOnly = true;
      config.ui.defaultTheme = 'dark';
      config.ui.topbar = { color: '#ff0000', label: 'Staging' };
      config.ui.banner = { text: 'Maintenance tonight', link: 'https://example.com' };
      config.ui.surveyEnvironmentId = 'env-1';
      config.analytics.enabled = false;
      config.analytics.flushIntervalMs = 2000;
      config.authentication = {
        methods: {
          token: { enabled: true, bootstrap: { token: 's3cret-token' } },
          github: {
            enabled: true,
            client_id: 'gh-id',
            client_secret: 'gh-s3cret',
            redirect_address: 'https://flags.example.com',
          },
        },
        session: { domain: 'flags.example.com', csrf: { key: 'csrf-s3cret' } },
      };
    });
  });
  afterAll(() => t.close());

  it('reports storage, ui, analytics and authentication as configured', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/meta/config' });
    expect(response.statusCode).toBe(200);
    const config = response.json();
    expect(config.storage).toEqual({ type: 'database', readOnly: true });
    expect(config.ui).toEqual({
      defaultTheme: 'dark',
      topbar: { color: '#ff0000', label: 'Staging' },
      banner: { text: 'Maintenance tonight', link: 'https://example.com' },
      surveyEnvironment: 'env-1',
    });
    expect(config.analytics.storage).toEqual({ clickhouse: {} });
    expect(config.analytics.buffer.flushPeriod).toBe(2_000_000_000);
    expect(config.authentication.required).toBe(false);
    expect(config.authentication.methods.token).toEqual({ enabled: true });
    expect(config.authentication.methods.github).toEqual({ enabled: true });
    expect(config.authentication.methods.oidc).toEqual({ enabled: false });
    expect(config.authentication.session).toEqual({ domain: 'flags.example.com', csrf: {} });
  });

  it('GET /meta/info carries storage, theme and top bar colour, and an empty analytics when off', async () => {
    const info = (await t.app.inject({ method: 'GET', url: '/meta/info' })).json();
    expect(info.storage).toEqual({ type: 'database', readOnly: true });
    expect(info.ui).toEqual({ theme: 'dark', topbarColor: '#ff0000' });
    expect(info.analytics).toEqual({});
  });

  it('never shows a secret', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/meta/config' });
    expect(response.body).not.toMatch(/s3cret/);
  });
});

// With authentication required the route itself needs a credential, so the section is checked directly.
describe('metaConfig', () => {
  it('reports required authentication and local storage as read-only', () => {
    const config = defaultConfig();
    config.authentication = { required: true, exclude: { metadata: true, evaluation: false } };
    config.storage = { type: 'local', localPath: '/srv/flags' };
    const shown = metaConfig(config) as { authentication: Record<string, unknown>; storage: unknown };
    expect(shown.authentication.required).toBe(true);
    expect(shown.authentication.exclude).toEqual({ metadata: true });
    expect(shown.storage).toEqual({ type: 'local', readOnly: true });
  });
});
