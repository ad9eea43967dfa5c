import type { Kysely } from 'kysely';
import { timestamps } from './columns.js';

/**
 * Authentications: API tokens and browser sessions. Only the base64url(sha256) hash of a client token
 * is stored; metadata is a JSON object of strings; timestamps are RFC 3339 text (see codec.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await timestamps(
    db.schema
      .createTable('authentications')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('method', 'varchar(40)', (c) => c.notNull())
      .addColumn('hashed_client_token', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('metadata', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'varchar(40)'),
  ).execute();
  await db.schema
    .createIndex('authentications_method_idx')
    .on('authentications')
    .columns(['method', 'created_at'])
    .execute();
}
