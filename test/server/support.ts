import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { createPostgresDatabase, type TestDatabase } from '../support/postgres.js';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app.js';
import { defaultConfig, type Config } from '../../server/config/index.js';
import type { Dialect } from '../../server/db/index.js';

/** The PostgreSQL server the suites use (test/server/postgres.setup.ts), or '' when there is none. */
export const postgresUrl = inject('postgresUrl');

/** The dialects every server suite runs against: SQLite always, PostgreSQL when a server is available. */
export const dialects: Dialect[] = postgresUrl ? ['sqlite', 'postgres'] : ['sqlite'];

export type { TestDatabase };

/** A new, empty database of the dialect: a temporary SQLite file, or a fresh PostgreSQL database. */
export async function createTestDatabase(dialect: Dialect): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'ensign-test-'));
    return { url: `file:${join(dir, 'ensign.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  return createPostgresDatabase(postgresUrl);
}

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  database: TestDatabase;
  close(): Promise<void>;
}

/** Builds the app on a new database of the dialect; `configure` adjusts the default config first. */
export async function startTestApp(dialect: Dialect, configure?: (config: Config) => void): Promise<TestApp> {
  const database = await createTestDatabase(dialect);
  const config = defaultConfig();
  config.db.url = database.url;
  configure?.(config);
  const app = await buildApp(config);
  await app.ready();
  return {
    app,
    config,
    database,
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}

/** An answer's headers less those that differ between two answers of one route (time, length, connection). */
export function comparable(headers: Record<string, unknown>): Record<string, string> {
  const varying = new Set(['date', 'content-length', 'connection', 'keep-alive', 'transfer-encoding']);
  return Object.fromEntries(
    Object.entries(headers)
      .filter(([name]) => !varying.has(name))
      .map(([name, value]) => [name, String(value)]),
  );
}
