// Global set-up of the server suites: which PostgreSQL server they use. TEST_DATABASE_URL when set (CI
// sets it), else the local server at 127.0.0.1:5432 when one answers; without either, the PostgreSQL
// runs are skipped and this says so loudly rather than passing in silence.
import pg from 'pg';
import type { TestProject } from 'vitest/node';

const LOCAL = 'postgres://postgres@127.0.0.1:5432/postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

export default async function setup(project: TestProject): Promise<void> {
  let url = process.env.TEST_DATABASE_URL ?? '';
  if (!url && (await reachable(LOCAL))) url = LOCAL;
  if (!url) {
    console.warn(
      '\n*** PostgreSQL: no TEST_DATABASE_URL and no server at 127.0.0.1:5432 — every PostgreSQL run of the server suites is SKIPPED ***\n',
    );
  }
  project.provide('postgresUrl', url);
}
