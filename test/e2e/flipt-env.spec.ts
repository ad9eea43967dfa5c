import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { promisify } from 'node:util';
import pg from 'pg';
import { expect, freePort, startServer, test } from './fixtures.js';

const POSTGRES = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Ensign's own variables, unset so that only Flipt's configure the server. */
const ENSIGN_VARIABLES = Object.fromEntries(
  [
    'PORT',
    'HOST',
    'DATABASE_URL',
    'LOG_LEVEL',
    'ENSIGN_CONFIG',
    'ENSIGN_WORKERS',
    'ENSIGN_STORAGE_TYPE',
    'ENSIGN_STORAGE_PATH',
    'ENSIGN_SURVEYS_FILE',
  ].map((name) => [name, undefined]),
);

async function withPostgres<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

test("a server configured by Flipt's environment variables alone: PostgreSQL, token authentication, CORS origins, log level", async ({
  page,
}) => {
  // A site of its own origin, to call the server from the browser as a web app would.
  const site = createServer((_, response) => response.end('<!doctype html><title>site</title>'));
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const sitePort = (site.address() as { port: number }).port;
  const database = `ensign_flipt_env_${randomBytes(4).toString('hex')}`;
  await withPostgres(POSTGRES, (client) => client.query(`CREATE DATABASE ${database}`));
  const databaseUrl = Object.assign(new URL(POSTGRES), { pathname: `/${database}` }).toString();
  const token = randomBytes(16).toString('hex');
  const env = {
    ...ENSIGN_VARIABLES,
    FLIPT_SERVER_HOST: '127.0.0.1',
    FLIPT_SERVER_HTTP_PORT: String(await freePort()),
    FLIPT_DB_URL: databaseUrl,
    FLIPT_AUTHENTICATION_REQUIRED: 'true',
    FLIPT_AUTHENTICATION_METHODS_TOKEN_ENABLED: 'true',
    FLIPT_AUTHENTICATION_METHODS_TOKEN_BOOTSTRAP_TOKEN: token,
    FLIPT_CORS_ENABLED: 'true',
    FLIPT_CORS_ALLOWED_ORIGINS: `https://app.example http://localhost:${sitePort}`,
    FLIPT_LOG_LEVEL: 'warn',
    // No gRPC listener: port 9000 may be another test server's, and grpc-js logs its bind failure as plain text.
    FLIPT_SERVER_GRPC_PORT: '0',
    FLIPT_LOG_ENCODING: 'json',
    FLIPT_LOG_LEVL: 'debug',
  };
  const server = await startServer([], env, { flags: false });
  try {
    // Token authentication: refused without the bootstrap token, answered with it.
    expect((await fetch(`${server.url}/api/v1/namespaces`)).status).toBe(401);
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const created = await fetch(`${server.url}/api/v1/namespaces/default/flags`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ key: 'from-flipt-env', name: 'From Flipt env', type: 'BOOLEAN_FLAG_TYPE', enabled: true }),
    });
    expect(created.status).toBe(200);

    // The database: the flag is a row of the PostgreSQL database FLIPT_DB_URL names.
    const rows = await withPostgres(databaseUrl, (client) =>
      client.query('SELECT key FROM flags WHERE key = $1', ['from-flipt-env']),
    );
    expect(rows.rows).toEqual([{ key: 'from-flipt-env' }]);

    // CORS: a listed origin is admitted by the browser routes' preflight, another is not.
    const preflight = (origin: string) =>
      fetch(`${server.url}/ofrep/v1/evaluate/flags/from-flipt-env`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
    expect((await preflight('https://app.example')).headers.get('access-control-allow-origin')).toBe(
      'https://app.example',
    );
    expect((await preflight('https://elsewhere.example')).headers.get('access-control-allow-origin')).toBeNull();
    // In Chromium: the listed origin evaluates the flag; the same site under another name is refused.
    const evaluateFrom = async (origin: string) => {
      await page.goto(origin);
      return page.evaluate(
        async ({ url, token }) => {
          try {
            const response = await fetch(`${url}/ofrep/v1/evaluate/flags/from-flipt-env`, {
              method: 'POST',
              headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
              body: JSON.stringify({ context: { targetingKey: 'u1' } }),
            });
            return ((await response.json()) as { value: unknown }).value;
          } catch (error) {
            return (error as Error).name;
          }
        },
        { url: server.url, token },
      );
    };
    expect(await evaluateFrom(`http://localhost:${sitePort}/`)).toBe(true);
    expect(await evaluateFrom(`http://127.0.0.1:${sitePort}/`)).toBe('TypeError');

    // The log level: warnings (the misspelt variable's among them) in JSON, no information lines.
    const lines = server
      .output()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(lines).toContainEqual(
      expect.objectContaining({ level: 40, msg: 'FLIPT_LOG_LEVL is not a Flipt setting Ensign knows: ignored' }),
    );
    expect(lines.filter((line) => line.level < 40)).toEqual([]);

    // `ensign config` with the same environment names each value's variable, the secrets masked.
    const { stdout } = await promisify(execFile)(process.execPath, ['dist/cli.js', 'config'], {
      env: { ...process.env, ...env },
    });
    expect(stdout).toMatch(/^db\.url +"postgres:\/\/.+" +\(env FLIPT_DB_URL\)$/m);
    expect(stdout).toMatch(
      /^authentication\.methods\.token\.bootstrap\.token +"\*+" +\(env FLIPT_AUTHENTICATION_METHODS_TOKEN_BOOTSTRAP_TOKEN\)$/m,
    );
    expect(stdout).not.toContain(token);
  } finally {
    site.close();
    await server.stop();
    await withPostgres(POSTGRES, (client) => client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
  }
});
