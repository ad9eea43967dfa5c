import type { Kysely } from 'kysely';
import { timestamps } from './columns.js';

/**
 * Flipt's entities. Enums are stored as their names; timestamps as RFC 3339 text (see codec.ts).
 * Deleting a flag cascades to its variants, rules, distributions and rollouts; deleting a segment that
 * a rule or rollout references is refused by the foreign keys of the two reference tables.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await timestamps(
    db.schema
      .createTable('flags')
      .addColumn('namespace_key', 'varchar(255)', (c) => c.notNull().references('namespaces.key').onDelete('cascade'))
      .addColumn('key', 'varchar(255)', (c) => c.notNull())
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('type', 'varchar(40)', (c) => c.notNull())
      .addColumn('default_variant_id', 'varchar(255)')
      .addColumn('metadata', 'text'),
  )
    .addPrimaryKeyConstraint('flags_pk', ['namespace_key', 'key'])
    .execute();

  await timestamps(
    db.schema
      .createTable('variants')
      .addColumn('id', 'varchar(255)', (c) => c.primaryKey())
      .addColumn('namespace_key', 'varchar(255)', (c) => c.notNull())
      .addColumn('flag_key', 'varchar(255)', (c) => c.notNull())
      .addColumn('key', 'varchar(255)', (c) => c.notNull())
      .addColumn('name', 'varchar(255)', (c) => c.notNull().defaultTo(''))
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('attachment', 'text', (c) => c.notNull().defaultTo('')),
  )
    .addForeignKeyConstraint(
      'variants_flag_fk',
      ['namespace_key', 'flag_key'],
      'flags',
      ['namespace_key', 'key'],
      (fk) => fk.onDelete('cascade'),
    )
    .addUniqueConstraint('variants_key_unique', ['namespace_key', 'flag_key', 'key'])
    .execute();

  await timestamps(
    db.schema
      .createTable('segments')
      .addColumn('namespace_key', 'varchar(255)', (c) => c.notNull().references('namespaces.key').onDelete('cascade'))
      .addColumn('key', 'varchar(255)', (c) => c.notNull())
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('match_type', 'varchar(40)', (c) => c.notNull()),
  )
    .addPrimaryKeyConstraint('segments_pk', ['namespace_key', 'key'])
    .execute();

  await timestamps(
    db.schema
      .createTable('constraints')
      .addColumn('id', 'varchar(255)', (c) => c.primaryKey())
      .addColumn('namespace_key', 'varchar(255)', (c) => c.notNull())
      .addColumn('segment_key', 'varchar(255)', (c) => c.notNull())
      .addColumn('type', 'varchar(40)', (c) => c.notNull())
      .addColumn('property', 'varchar(255)', (c) => c.notNull())
      .addColumn('operator', 'varchar(255)', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('description', 'text', (c) => c.notNull().defaultTo('')),
  )
    .addForeignKeyConstraint(
      'constraints_segment_fk',
      ['namespace_key', 'segment_key'],
      'segments',
      ['namespace_key', 'key'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();

  await timestamps(
    db.schema
      .createTable('rules')
      .addColumn('id', 'varchar(255)', (c) => c.primaryKey())
      .addColumn('namespace_key', 'varchar(255)', (c) => c.notNull())
      .addColumn('flag_key', 'varchar(255)', (c) => c.notNull())
      .addColumn('rank', 'integer', (c) => c.notNull())
      .addColumn('segment_operator', 'varchar(40)', (c) => c.notNull()),
  )
    .addForeignKeyConstraint('rules_flag_fk', ['namespace_key', 'flag_key'], 'flags', ['namespace_key', 'key'], (fk) =>
      fk.onDelete('cascade'),
    )
    .execute();

  await db.schema
    .createTable('rule_segments')
    .addColumn('rule_id', 'varchar(255)', (c) => c.notNull().references('rules.id').onDelete('cascade'))
    .addColumn('namespace_key', 'varchar(255)', (c) => c.notNull())
    .addColumn('segment_key', 'varchar(255)', (c) => c.notNull())
    .addPrimaryKeyConstraint('rule_segments_pk', ['rule_id', 'namespace_key', 'segment_key'])
    .addForeignKeyConstraint(
      'rule_segments_segment_fk',
      ['namespace_key', 'segment_key'],
      'segments',
      ['namespace_key', 'key'],
      (fk) => fk.onDelete('restrict'),
    )
    .execute();

  await timestamps(
    db.schema
      .createTable('distributions')
      .addColumn('id', 'varchar(255)', (c) => c.primaryKey())
      .addColumn('rule_id', 'varchar(255)', (c) => c.notNull().references('rules.id').onDelete('cascade'))
      .addColumn('variant_id', 'varchar(255)', (c) => c.notNull().references('variants.id').onDelete('cascade'))
      .addColumn('rollout', 'real', (c) => c.notNull()),
  ).execute();

  await timestamps(
    db.schema
      .createTable('rollouts')
      .addColumn('id', 'varchar(255)', (c) => c.primaryKey())
      .addColumn('namespace_key', 'varchar(255)', (c) => c.notNull())
      .addColumn('flag_key', 'varchar(255)', (c) => c.notNull())
      .addColumn('type', 'varchar(40)', (c) => c.notNull())
      .addColumn('rank', 'integer', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo('')),
  )
    .addForeignKeyConstraint(
      'rollouts_flag_fk',
      ['namespace_key', 'flag_key'],
      'flags',
      ['namespace_key', 'key'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();

  await db.schema
    .createTable('rollout_thresholds')
    .addColumn('rollout_id', 'varchar(255)', (c) => c.primaryKey().references('rollouts.id').onDelete('cascade'))
    .addColumn('percentage', 'real', (c) => c.notNull())
    .addColumn('value', 'boolean', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('rollout_segments')
    .addColumn('rollout_id', 'varchar(255)', (c) => c.primaryKey().references('rollouts.id').onDelete('cascade'))
    .addColumn('value', 'boolean', (c) => c.notNull())
    .addColumn('segment_operator', 'varchar(40)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('rollout_segment_references')
    .addColumn('rollout_id', 'varchar(255)', (c) =>
      c.notNull().references('rollout_segments.rollout_id').onDelete('cascade'),
    )
    .addColumn('namespace_key', 'varchar(255)', (c) => c.notNull())
    .addColumn('segment_key', 'varchar(255)', (c) => c.notNull())
    .addPrimaryKeyConstraint('rollout_segment_references_pk', ['rollout_id', 'namespace_key', 'segment_key'])
    .addForeignKeyConstraint(
      'rollout_segment_references_segment_fk',
      ['namespace_key', 'segment_key'],
      'segments',
      ['namespace_key', 'key'],
      (fk) => fk.onDelete('restrict'),
    )
    .execute();

  await db.schema.createIndex('rules_flag_idx').on('rules').columns(['namespace_key', 'flag_key', 'rank']).execute();
  await db.schema
    .createIndex('rollouts_flag_idx')
    .on('rollouts')
    .columns(['namespace_key', 'flag_key', 'rank'])
    .execute();
  await db.schema.createIndex('flags_created_idx').on('flags').columns(['namespace_key', 'created_at']).execute();
  await db.schema.createIndex('segments_created_idx').on('segments').columns(['namespace_key', 'created_at']).execute();
}
