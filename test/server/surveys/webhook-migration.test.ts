import { type Kysely, Migrator } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { ChangeFeed } from '../../../server/changes.js';
import { type Database, migrate, openDatabase } from '../../../server/db/index.js';
import { migrationsFor } from '../../../server/db/migrations/index.js';
import { DEMO_ENVIRONMENT_ID, DEMO_SEED } from '../../../server/surveys/demo.js';
import { applySeed } from '../../../server/surveys/seed.js';
import { SurveyStore } from '../../../server/surveys/store/index.js';
import { saveWebhook } from '../../../server/surveys/store/webhooks.js';
import { createTestDatabase, dialects, type TestDatabase } from '../support.js';

describe.each(dialects)('migration 0014 (webhook payloads) on %s', (dialect) => {
  let test: TestDatabase;
  let database: Database;
  afterEach(async () => {
    await database.close();
    await test.drop();
  });

  it('keeps queued deliveries, each with its response as a payload of its own', async () => {
    test = await createTestDatabase(dialect);
    database = await openDatabase(test.url, { migrate: false });
    const before = Object.fromEntries(
      Object.entries(migrationsFor(database.dialect)).filter(([name]) => name < '0014_webhook_payloads'),
    );
    await new Migrator({ db: database.db, provider: { getMigrations: async () => before } }).migrateToLatest();
    await applySeed(new SurveyStore(database, new ChangeFeed()), DEMO_SEED, 'demo');
    const hook = await saveWebhook(database, DEMO_ENVIRONMENT_ID, {
      url: 'https://203.0.113.10/hook',
      triggers: ['responseCreated'],
    });
    const data = { id: 'response1', data: { feedback: 'ok' } };
    await (database.db as unknown as Kysely<any>)
      .insertInto('survey_webhook_deliveries')
      .values({
        id: 'delivery1',
        webhook_id: hook.id,
        event: 'responseCreated',
        payload: JSON.stringify({ webhookId: hook.id, event: 'responseCreated', data }),
        status: 'pending',
        attempts: 2,
        next_attempt_at: '2026-01-01T00:00:00.000Z',
        last_error: 'HTTP 500',
        created_at: '2026-01-01T00:00:00.000Z',
      })
      .execute();

    // 0014 runs first of what the database lacks (the later ones after it).
    expect((await migrate(database))[0]).toBe('0014_webhook_payloads');
    const payloads = await database.db.selectFrom('survey_webhook_payloads').selectAll().execute();
    expect(payloads).toEqual([
      {
        id: 'delivery1',
        environment_id: DEMO_ENVIRONMENT_ID,
        data: JSON.stringify(data),
        created_at: '2026-01-01T00:00:00.000Z',
      },
    ]);
    const [delivery] = await database.db.selectFrom('survey_webhook_deliveries').selectAll().execute();
    expect(delivery).toMatchObject({ id: 'delivery1', payload_id: 'delivery1', attempts: 2, status: 'pending' });
    expect(delivery).not.toHaveProperty('payload');
    const [webhook] = await database.db.selectFrom('survey_webhooks').selectAll().execute();
    expect(webhook).toMatchObject({ paused_at: null, failures_in_a_row: 0 });
  });
});
