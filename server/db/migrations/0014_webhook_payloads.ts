import type { Kysely } from 'kysely';

/**
 * Survey webhooks: a response's payload stored once, however many webhooks it is delivered to
 * (deliveries refer to it; the delivery's envelope, `{webhookId, event, data}`, is put together when it is
 * sent), a webhook's deliveries indexed by their status, and a webhook paused after failing again and
 * again. Queued deliveries keep their payloads: each one's `data` becomes a payload of its own.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('survey_webhook_payloads')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('environment_id', 'varchar(64)', (c) =>
      c.notNull().references('survey_environments.id').onDelete('cascade'),
    )
    // The response as the management API gives it, JSON.
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('survey_webhook_payloads_environment_idx')
    .on('survey_webhook_payloads')
    .column('environment_id')
    .execute();
  // Nullable only because SQLite adds no NOT NULL column to a table with rows; every row gets one below.
  await db.schema
    .alterTable('survey_webhook_deliveries')
    .addColumn('payload_id', 'varchar(64)', (c) => c.references('survey_webhook_payloads.id').onDelete('cascade'))
    .execute();
  await db.schema
    .createIndex('survey_webhook_deliveries_payload_idx')
    .on('survey_webhook_deliveries')
    .column('payload_id')
    .execute();

  for (let after = ''; ; ) {
    const rows = await db
      .selectFrom('survey_webhook_deliveries as d')
      .innerJoin('survey_webhooks as w', 'w.id', 'd.webhook_id')
      .select(['d.id', 'd.payload', 'd.created_at', 'w.environment_id'])
      .where('d.id', '>', after)
      .orderBy('d.id')
      .limit(500)
      .execute();
    if (rows.length === 0) break;
    await db
      .insertInto('survey_webhook_payloads')
      .values(
        rows.map((row) => ({
          id: row.id,
          environment_id: row.environment_id,
          data: JSON.stringify(JSON.parse(row.payload).data),
          created_at: row.created_at,
        })),
      )
      .execute();
    for (const row of rows) {
      await db.updateTable('survey_webhook_deliveries').set({ payload_id: row.id }).where('id', '=', row.id).execute();
    }
    after = rows[rows.length - 1].id;
  }
  await db.schema.alterTable('survey_webhook_deliveries').dropColumn('payload').execute();

  // A webhook's waiting deliveries are counted as each response is queued (at most 1,000 of them).
  await db.schema.dropIndex('survey_webhook_deliveries_webhook_idx').execute();
  await db.schema
    .createIndex('survey_webhook_deliveries_webhook_idx')
    .on('survey_webhook_deliveries')
    .columns(['webhook_id', 'status'])
    .execute();

  await db.schema.alterTable('survey_webhooks').addColumn('paused_at', 'varchar(40)').execute();
  await db.schema
    .alterTable('survey_webhooks')
    .addColumn('failures_in_a_row', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
