import type { CreateTableBuilder } from 'kysely';

/** `created_at` and `updated_at`: RFC 3339 UTC text in both dialects (see codec.ts). */
export const timestamps = (table: CreateTableBuilder<string, string>) =>
  table
    .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(40)', (c) => c.notNull());

/** The time now in the timestamps' format: RFC 3339 UTC with six fraction digits. */
export const timestampNow = () => new Date().toISOString().replace('Z', '000Z');
