/**
 * Writes many flags (every other one a variant flag with two variants) and segments straight into a
 * database, a few hundred rows per statement, for the tests and benchmarks of large namespaces. Keys
 * are `flag-00000`...; 7 rows in a row share one creation time, and each statement writes its rows
 * in reverse, so a list ordered by creation time then key is checked on ties and not by insertion.
 */
import { randomUUID } from 'node:crypto';
import type { Insertable } from 'kysely';
import { fromBool, microsToTimestamp } from '../../server/db/codec.js';
import { openDatabase } from '../../server/db/index.js';
import type { Database as Tables } from '../../server/db/schema.js';

const ROWS_PER_STATEMENT = 400;

export const manyFlagKey = (i: number) => `flag-${String(i).padStart(6, '0')}`;
export const manySegmentKey = (i: number) => `segment-${String(i).padStart(6, '0')}`;

export async function seedMany(
  url: string,
  { namespaceKey = 'default', flags = 0, segments = 0 }: { namespaceKey?: string; flags?: number; segments?: number },
): Promise<void> {
  const database = await openDatabase(url);
  const base = Date.UTC(2024, 0, 1) * 1000;
  const createdAt = (i: number) => microsToTimestamp(base + Math.floor(i / 7) * 1_000_000);
  try {
    await database.transaction(async (trx) => {
      const insert = async <T extends keyof Tables>(table: T, rows: Insertable<Tables[T]>[]) => {
        for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
          const batch = rows.slice(start, start + ROWS_PER_STATEMENT).reverse();
          await trx
            .insertInto(table)
            .values(batch as never)
            .execute();
        }
      };
      if (namespaceKey !== 'default') {
        const now = createdAt(0);
        await insert('namespaces', [
          {
            key: namespaceKey,
            name: namespaceKey,
            description: '',
            protected: fromBool(database.dialect, false),
            created_at: now,
            updated_at: now,
          },
        ]);
      }
      const flagRows: Insertable<Tables['flags']>[] = [];
      const variantRows: Insertable<Tables['variants']>[] = [];
      for (let i = 0; i < flags; i++) {
        const key = manyFlagKey(i);
        const variant = i % 2 === 1;
        flagRows.push({
          namespace_key: namespaceKey,
          key,
          name: `Flag ${i}`,
          description: '',
          enabled: fromBool(database.dialect, i % 3 === 0),
          type: variant ? 'VARIANT_FLAG_TYPE' : 'BOOLEAN_FLAG_TYPE',
          default_variant_id: null,
          metadata: null,
          created_at: createdAt(i),
          updated_at: createdAt(i),
        });
        if (!variant) continue;
        for (const name of ['on', 'off']) {
          variantRows.push({
            id: randomUUID(),
            namespace_key: namespaceKey,
            flag_key: key,
            key: name,
            name,
            description: '',
            attachment: '',
            created_at: createdAt(i),
            updated_at: createdAt(i),
          });
        }
      }
      await insert('flags', flagRows);
      await insert('variants', variantRows);
      await insert(
        'segments',
        Array.from({ length: segments }, (_, i) => ({
          namespace_key: namespaceKey,
          key: manySegmentKey(i),
          name: `Segment ${i}`,
          description: '',
          match_type: 'ALL_MATCH_TYPE',
          created_at: createdAt(i),
          updated_at: createdAt(i),
        })),
      );
    });
  } finally {
    await database.close();
  }
}
