import type { Namespace } from '../../../domain/flipt/types.js';
import type { Database } from '../../db/index.js';
import type { NamespacesTable } from '../../db/schema.js';
import { toBool } from '../../db/codec.js';
import { formatTimestamp } from '../timestamps.js';

export function namespaceFromRow(row: NamespacesTable): Namespace {
  return {
    key: row.key,
    name: row.name,
    description: row.description,
    protected: toBool(row.protected),
    createdAt: formatTimestamp(row.created_at),
    updatedAt: formatTimestamp(row.updated_at),
  };
}

/** Every namespace, oldest first (Flipt's order). */
export async function listNamespaces({ db }: Database): Promise<Namespace[]> {
  const rows = await db.selectFrom('namespaces').selectAll().orderBy('created_at').orderBy('key').execute();
  return rows.map(namespaceFromRow);
}
