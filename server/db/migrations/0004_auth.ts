import type { Kysely } from 'kysely';

/**
 * Authentications: API tokens and browser sessions. Only the base64url(sha256) hash of a client token
 * is stored; metadata is a JSON object of strings; timestamps are RFC 3339 text (see codec.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('authentications')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('method', 'varchar(40)', (c) => c.notNull())
    .addColumn('hashed_client_token', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(40)')
    .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(40)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('authentications_method_idx').on('authentications').columns(['method', 'created_at']).execute();
}
