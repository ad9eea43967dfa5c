import type { Namespace, NamespaceList } from '../../../domain/flipt/types.js';
import type { CreateNamespaceInput, ListInput, UpdateNamespaceInput } from '../../../domain/flipt/schemas.js';
import type { NamespacesTable } from '../../db/schema.js';
import { fromBool, nowTimestamp, toBool } from '../../db/codec.js';
import { formatTimestamp } from '../timestamps.js';
import { invalid, notFound } from '../errors.js';
import type { Executor } from '../../db/executor.js';
import { namespacesPage, pageWindow } from './pagination.js';

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

/** Namespaces oldest first (Flipt's order). */
export async function listNamespaces(executor: Executor, page: ListInput): Promise<NamespaceList> {
  const result = await namespacesPage(executor, pageWindow(page, { requireLimit: false }));
  return {
    namespaces: result.rows.map(namespaceFromRow),
    nextPageToken: result.nextPageToken,
    totalCount: result.totalCount,
  };
}

export async function findNamespace({ db }: Executor, key: string): Promise<NamespacesTable | undefined> {
  return db.selectFrom('namespaces').selectAll().where('key', '=', key).executeTakeFirst();
}

export async function getNamespace(executor: Executor, key: string): Promise<Namespace> {
  const row = await findNamespace(executor, key);
  if (!row) throw notFound(`namespace "${key}"`);
  return namespaceFromRow(row);
}

/** Throws Flipt's 404 unless the namespace exists (creating flags or segments in it). */
export async function requireNamespace(executor: Executor, key: string): Promise<void> {
  if (!(await findNamespace(executor, key))) throw notFound(`namespace "${key}"`);
}

export async function createNamespace(executor: Executor, input: CreateNamespaceInput): Promise<Namespace> {
  if (await findNamespace(executor, input.key)) throw invalid(`namespace "${input.key}" is not unique`);
  const now = nowTimestamp();
  const row: NamespacesTable = {
    key: input.key,
    name: input.name,
    description: input.description,
    protected: fromBool(executor.dialect, false),
    created_at: now,
    updated_at: now,
  };
  await executor.db.insertInto('namespaces').values(row).execute();
  return namespaceFromRow(row);
}

export async function updateNamespace(executor: Executor, input: UpdateNamespaceInput): Promise<Namespace> {
  const row = await findNamespace(executor, input.key);
  if (!row) throw notFound(`namespace "${input.key}"`);
  const changed = { name: input.name, description: input.description, updated_at: nowTimestamp() };
  await executor.db.updateTable('namespaces').set(changed).where('key', '=', input.key).execute();
  return namespaceFromRow({ ...row, ...changed });
}

/** Deletes every flag and segment of a namespace: flags first, as their rules and rollouts hold on to segments. */
export async function emptyNamespace({ db }: Executor, key: string): Promise<void> {
  await db.deleteFrom('flags').where('namespace_key', '=', key).execute();
  await db.deleteFrom('segments').where('namespace_key', '=', key).execute();
}

/**
 * Refuses protected namespaces and namespaces with flags, unless forced; segments and constraints go
 * with it (and, when forced, its flags first, so no rule still holds a segment).
 */
export async function deleteNamespace(executor: Executor, key: string, force: boolean): Promise<void> {
  const row = await findNamespace(executor, key);
  if (!row) throw notFound(`namespace "${key}"`);
  if (!force) {
    if (toBool(row.protected)) throw invalid(`namespace "${key}" is protected`);
    const flag = await executor.db
      .selectFrom('flags')
      .select('key')
      .where('namespace_key', '=', key)
      .limit(1)
      .executeTakeFirst();
    if (flag) throw invalid(`namespace "${key}" cannot be deleted; flags must be deleted first`);
  }
  await emptyNamespace(executor, key);
  await executor.db.deleteFrom('namespaces').where('key', '=', key).execute();
}
