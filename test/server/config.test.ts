import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  loadConfig,
  parseConfigFile,
  parseDurationMs,
  DEFAULT_DB_URL,
} from '../../server/config/index.js';

function configFile(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'ensign-config-')), 'config.yml');
  writeFileSync(path, text);
  return path;
}

describe('configuration', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({}, {});
    expect(config.server).toEqual({
      protocol: 'http',
      host: '0.0.0.0',
      port: 8080,
      workers: 1,
      shutdownTimeoutMs: 30_000,
      grpcPort: 9000,
      grpcPortSet: false,
    });
    expect(config.db.url).toBe(DEFAULT_DB_URL);
    expect(config.storage.type).toBe('database');
    expect(config.ui.defaultTheme).toBe('system');
  });

  it('takes a flag over the environment, the environment over the file, the file over the default', () => {
    const file = configFile(
      'server:\n  http_port: 9001\n  host: 127.0.0.2\n  workers: 2\ndb:\n  url: file:/tmp/from-file.db\n',
    );
    const fromFile = loadConfig({ config: file }, {});
    expect(fromFile.server).toMatchObject({ host: '127.0.0.2', port: 9001, workers: 2 });
    expect(fromFile.db.url).toBe('file:/tmp/from-file.db');

    const fromEnv = loadConfig({ config: file }, { PORT: '9002', DATABASE_URL: 'postgres://x/y' });
    expect(fromEnv.server.port).toBe(9002);
    expect(fromEnv.db.url).toBe('postgres://x/y');
    expect(fromEnv.server.host).toBe('127.0.0.2');

    const fromFlag = loadConfig({ config: file, port: '9003', host: '::1' }, { PORT: '9002' });
    expect(fromFlag.server).toMatchObject({ host: '::1', port: 9003, workers: 2 });
  });

  it('reads the config file path from ENSIGN_CONFIG', () => {
    const file = configFile('ui:\n  default_theme: dark\n  topbar:\n    label: Staging\n');
    const config = loadConfig({}, { ENSIGN_CONFIG: file });
    expect(config.ui.defaultTheme).toBe('dark');
    expect(config.ui.topbar).toEqual({ color: '', label: 'Staging' });
  });

  it('reads the cors section, which the OFREP and snapshot routes answer browsers with', () => {
    expect(loadConfig({}, {}).cors.allowedHeaders).toContain('If-None-Match');
    const file = configFile(
      'cors:\n  enabled: true\n  allowed_origins: [https://shop.test]\n  allowed_headers: [X-Custom]\n',
    );
    expect(loadConfig({ config: file }, {}).cors).toEqual({
      enabled: true,
      allowedOrigins: ['https://shop.test'],
      allowedHeaders: ['X-Custom'],
    });
  });

  it('accepts a Flipt config.yml, and refuses in one line a key Ensign has no behaviour for', () => {
    const parsed = parseConfigFile(
      [
        'log:\n  level: warn\n  encoding: json',
        'tracing:\n  enabled: false',
        'authentication:\n  required: true\n  session:\n    domain: localhost\n  methods:\n    token:\n      enabled: true',
        'storage:\n  type: local\n  local:\n    path: /tmp/features',
      ].join('\n'),
    );
    expect(parsed.log?.level).toBe('warn');
    expect(parsed.authentication?.methods?.token?.enabled).toBe(true);
    expect(parsed.storage?.local?.path).toBe('/tmp/features');
    expect(() => parseConfigFile('cache:\n  enabled: true\n  backend: memory\n', 'config.yml')).toThrow(
      new ConfigError(
        'config.yml: "cache.backend" is not supported by Ensign (evaluations always run on in-memory snapshots); remove it',
      ),
    );
  });

  it('reads HTTPS settings and stops on a certificate it cannot read, naming the key', () => {
    const https = configFile('server:\n  protocol: https\n  cert_file: /no/cert.pem\n  cert_key: /no/key.pem\n');
    expect(() => loadConfig({ config: https }, {})).toThrow(
      new ConfigError('server.cert_file: cannot read /no/cert.pem: ENOENT'),
    );
    expect(() => loadConfig({ config: configFile('server:\n  protocol: https\n') }, {})).toThrow(
      'server.cert_file is required when server.protocol is https',
    );
    expect(() => loadConfig({ config: configFile('server:\n  cert_file: /x.pem\n') }, {})).toThrow(
      'server.cert_file is only used with server.protocol: https',
    );
  });

  it('names an unknown key in one line', () => {
    expect(() => parseConfigFile('server:\n  htp_port: 1\n', 'config.yml')).toThrow(
      new ConfigError('config.yml: unknown key "server.htp_port"'),
    );
    expect(() => parseConfigFile('nonsense: 1\n', 'config.yml')).toThrow('config.yml: unknown key "nonsense"');
  });

  it('names a key of the wrong type in one line', () => {
    expect(() => parseConfigFile('server:\n  http_port: abc\n', 'c.yml')).toThrow(
      /^c\.yml: server\.http_port must be a port number from 0 to 65535 \(got "abc"\)$/,
    );
    expect(() => parseConfigFile('ui:\n  default_theme: pink\n', 'c.yml')).toThrow(
      /^c\.yml: ui\.default_theme must be "system", "light" or "dark"/,
    );
    expect(() => parseConfigFile('authentication:\n  required: maybe\n', 'c.yml')).toThrow(
      /^c\.yml: authentication\.required must be a boolean/,
    );
  });

  it('reports invalid YAML and a missing file', () => {
    expect(() => parseConfigFile('server: [\n', 'c.yml')).toThrow(/^c\.yml: invalid YAML/);
    expect(() => loadConfig({ config: '/no/such/file.yml' }, {})).toThrow(
      'cannot read config file /no/such/file.yml: ENOENT',
    );
  });

  it('rejects a bad port and local storage without a path', () => {
    expect(() => loadConfig({ port: '70000' }, {})).toThrow(
      '--port must be a port number from 0 to 65535 (got "70000")',
    );
    expect(() => loadConfig({}, { PORT: 'x' })).toThrow('PORT must be a port number');
    expect(() => loadConfig({ workers: '0' }, {})).toThrow(
      '--workers must be a whole number of processes from 1 to 64 (got "0")',
    );
    expect(() => loadConfig({}, { ENSIGN_WORKERS: '1.5' })).toThrow(
      'ENSIGN_WORKERS must be a whole number of processes',
    );
    expect(loadConfig({}, { ENSIGN_WORKERS: '4' }).server.workers).toBe(4);
    expect(() => loadConfig({ storage: 'local' }, {})).toThrow(/storage\.local\.path is required/);
    expect(() => loadConfig({ storage: 'object' }, {})).toThrow(
      '--storage must be "database", "local" or "git" (got "object")',
    );
    expect(() => loadConfig({ storage: 'git' }, {})).toThrow(
      'storage.git.repository is required when storage.type is "git"',
    );
  });

  it("reads storage.git with Flipt's keys and defaults, and names a bad one", () => {
    const git = (text: string) =>
      loadConfig({ config: configFile(`storage:\n  type: git\n  git:\n${text}`) }, {}).storage.git;
    expect(git('    repository: https://example.com/flags.git\n')).toEqual({
      repository: 'https://example.com/flags.git',
      ref: 'main',
      refType: 'static',
      directory: '',
      pollIntervalMs: 30_000,
      caCertPath: undefined,
      caCertBytes: undefined,
      insecureSkipTls: false,
    });
    expect(
      git(
        '    repository: git@example.com:team/flags.git\n    ref: v1.x\n    ref_type: semver\n    directory: /flags/\n' +
          '    poll_interval: 1m\n    authentication:\n      ssh:\n        private_key_bytes: KEY\n',
      ),
    ).toMatchObject({
      ref: 'v1.x',
      refType: 'semver',
      directory: 'flags',
      pollIntervalMs: 60_000,
      authentication: { type: 'ssh', user: 'git', privateKeyBytes: 'KEY', insecureIgnoreHostKey: false },
    });
    expect(
      git('    repository: https://h/r.git\n    authentication:\n      token:\n        access_token: T\n'),
    ).toMatchObject({ authentication: { type: 'token', accessToken: 'T' } });
    expect(() => git('    repository: https://h/r.git\n    branch: main\n')).toThrow(
      'unknown key "storage.git.branch"',
    );
    expect(() => git('    repository: ext::sh -c evil\n')).toThrow(
      'storage.git.repository must be an http(s), ssh or file URL, or user@host:path',
    );
    expect(() => git('    repository: https://h/r.git\n    ref_type: latest\n')).toThrow(
      'storage.git.ref_type must be "static" or "semver"',
    );
    expect(() =>
      git(
        '    repository: https://h/r.git\n    authentication:\n      basic: {username: a, password: b}\n      token: {access_token: c}\n',
      ),
    ).toThrow('storage.git.authentication takes one method (got basic and token)');
    expect(() => git('    repository: https://h/r.git\n    poll_interval: 10ms\n')).toThrow(
      'storage.git.poll_interval must be at least 1s',
    );
    expect(() => git('    repository: https://h/r.git\n    directory: ../up\n')).toThrow(
      'storage.git.directory must stay inside the repository',
    );
  });

  it('parses Go durations', () => {
    expect(parseDurationMs('24h', 'k')).toBe(86_400_000);
    expect(parseDurationMs('1h30m', 'k')).toBe(5_400_000);
    expect(parseDurationMs('250ms', 'k')).toBe(250);
    expect(parseDurationMs(2_000_000_000, 'k')).toBe(2000);
    expect(() => parseDurationMs('soon', 'session.token_lifetime')).toThrow(
      /^session\.token_lifetime must be a duration/,
    );
  });
});
