import type { FastifyInstance, HTTPMethods, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../server/app.js';
import { defaultConfig } from '../../../server/config/index.js';
import { openDatabase } from '../../../server/db/index.js';
import { READ_ONLY_STORAGE } from '../../../server/surveys/errors.js';
import { createTestDatabase, dialects, type TestDatabase } from '../support.js';
import { API_KEY, CLIENT, ENV } from './support.js';

// With the storage read-only, every write of every survey surface is refused with one status and the reason,
// before anything is looked up, and nothing stored changes. The routes are read from the
// app itself, so a write route added later is covered without a change here.

const SURVEY_SURFACES = /^\/api\/v1\/(management\/|namespaces\/:namespaceKey\/surveys\/)/;
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

describe.each(dialects)('survey writes on read-only storage, on %s', (dialect) => {
  const routes: RouteOptions[] = [];
  let app: FastifyInstance;
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    const config = defaultConfig();
    config.db.url = database.url;
    config.storage.readOnly = true;
    app = await buildApp(config, { onRoute: (route) => routes.push(route) });
    await app.ready();
    // A survey request seeds the demo environment (a server seeds it a moment after it listens).
    expect((await app.inject({ method: 'GET', url: `${CLIENT}/in-app/sync` })).statusCode).toBe(200);
  });
  afterAll(async () => {
    await app.close();
    await database.drop();
  });

  /** Every table's row count: what a refused write must leave as it was. */
  async function storedRows(): Promise<Record<string, number>> {
    const opened = await openDatabase(database.url, { migrate: false });
    try {
      const counts: Record<string, number> = {};
      for (const table of await opened.db.introspection.getTables()) {
        const [row] = await opened.db
          .selectFrom(table.name as 'surveys')
          .select((eb) => eb.fn.countAll().as('n'))
          .execute();
        counts[table.name] = Number(row.n);
      }
      return counts;
    } finally {
      await opened.close();
    }
  }

  it('refuses each with 403 and the reason, in its API shape, and changes nothing', async () => {
    const writes = routes.flatMap((route) =>
      [route.method]
        .flat()
        .filter((method) => WRITES.has(method) && SURVEY_SURFACES.test(route.url))
        .map((method) => ({ method: method as HTTPMethods, url: route.url })),
    );
    // The management API's and the console's surveys, keys, product, action classes, results and webhooks.
    expect(writes.length).toBeGreaterThan(20);
    const before = await storedRows();
    for (const { method, url } of writes) {
      const path = url
        .replace(':namespaceKey', 'default')
        .replace(':environmentId', ENV)
        .replace(/:[^/]+/g, 'x');
      const response = await app.inject({
        method,
        url: path,
        headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' },
        payload: '{}',
      });
      const label = `${method} ${url}`;
      expect(response.statusCode, label).toBe(403);
      expect(response.json().message, label).toBe(READ_ONLY_STORAGE);
    }
    expect(await storedRows()).toEqual(before);
  });

  it('still reads', async () => {
    const surveys = await app.inject({
      method: 'GET',
      url: '/api/v1/management/surveys',
      headers: { 'x-api-key': API_KEY },
    });
    expect(surveys.statusCode).toBe(200);
    expect(surveys.json().data.length).toBeGreaterThan(0);
  });
});
