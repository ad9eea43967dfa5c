import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Database } from '../../../server/db/index.js';
import { dialects, startTestApp, type TestApp } from '../support.js';
import { CLIENT, ENV } from './support.js';

/** The demo environment's rows as another connection sees them. */
async function demoEnvironments(database: Database): Promise<number> {
  const rows = await database.db.selectFrom('survey_environments').select('id').where('id', '=', ENV).execute();
  return rows.length;
}

describe.each(dialects)('the demo environment (%s)', (dialect) => {
  let test: TestApp | undefined;
  let observer: Database | undefined;
  afterEach(async () => {
    await observer?.close();
    await test?.close();
    observer = test = undefined;
  });

  it('is not seeded before the server listens, and is once it listens, with no request', async () => {
    test = await startTestApp(dialect);
    observer = await openDatabase(test.database.url, { migrate: false });
    expect(await demoEnvironments(observer)).toBe(0);
    await test.app.listen({ port: 0, host: '127.0.0.1' });
    await vi.waitFor(async () => expect(await demoEnvironments(observer!)).toBe(1), { timeout: 10_000 });
  });

  it('is there for a survey request that comes before the server listens', async () => {
    test = await startTestApp(dialect);
    const response = await test.app.inject({ method: 'GET', url: `${CLIENT}/in-app/sync` });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.surveys.length).toBeGreaterThan(0);
  });
});
