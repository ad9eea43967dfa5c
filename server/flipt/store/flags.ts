import { randomUUID } from 'node:crypto';
import type { Flag, FlagList, FlagType, Variant } from '../../../domain/flipt/types.js';
import type {
  CreateFlagInput,
  CreateVariantInput,
  ListInput,
  UpdateFlagInput,
  UpdateVariantInput,
} from '../../../domain/flipt/schemas.js';
import type { FlagsTable, VariantsTable } from '../../db/schema.js';
import { type Dialect, fromBool, nowTimestamp, toBool } from '../../db/codec.js';
import { formatTimestamp } from '../timestamps.js';
import { invalid, notFound } from '../errors.js';
import type { Executor } from '../../db/executor.js';
import { refuseIfSurveysLink } from './survey-links.js';
import { childrenByParent } from './children.js';
import { namespacePage, pageWindow } from './pagination.js';
import { requireNamespace } from './namespaces.js';

export function variantFromRow(row: VariantsTable): Variant {
  return {
    id: row.id,
    flagKey: row.flag_key,
    key: row.key,
    name: row.name,
    description: row.description,
    createdAt: formatTimestamp(row.created_at),
    updatedAt: formatTimestamp(row.updated_at),
    attachment: row.attachment,
    namespaceKey: row.namespace_key,
  };
}

/**
 * A flag as Flipt emits it: `defaultVariant` omitted when none; `metadata` omitted by Get when
 * unset, while List always emits it (`{}` when unset).
 */
function flagFromRow(row: FlagsTable, variantRows: VariantsTable[], shape: 'get' | 'list'): Flag {
  const variants = variantRows.map(variantFromRow);
  const flag: Flag = {
    key: row.key,
    name: row.name,
    description: row.description,
    enabled: toBool(row.enabled),
    createdAt: formatTimestamp(row.created_at),
    updatedAt: formatTimestamp(row.updated_at),
    variants,
    namespaceKey: row.namespace_key,
    type: row.type as FlagType,
  };
  const defaultVariant = variants.find((variant) => variant.id === row.default_variant_id);
  if (defaultVariant) flag.defaultVariant = defaultVariant;
  if (row.metadata !== null) flag.metadata = JSON.parse(row.metadata) as Record<string, unknown>;
  else if (shape === 'list') flag.metadata = {};
  return flag;
}

function variantsOf(
  executor: Executor,
  namespaceKey: string,
  flagKeys: string[],
): Promise<Map<string, VariantsTable[]>> {
  return childrenByParent(executor, 'variants', namespaceKey, flagKeys);
}

/** A page of flags; `counted: false` leaves `totalCount` 0 rather than counting the namespace's flags. */
export async function listFlags(
  executor: Executor,
  namespaceKey: string,
  page: ListInput,
  counted = true,
): Promise<FlagList> {
  const window = pageWindow(page, { requireLimit: true });
  const result = await namespacePage(executor, 'flags', namespaceKey, window, counted);
  const variants = await variantsOf(
    executor,
    namespaceKey,
    result.rows.map((row) => row.key),
  );
  return {
    flags: result.rows.map((row) => flagFromRow(row, variants.get(row.key) ?? [], 'list')),
    nextPageToken: result.nextPageToken,
    totalCount: result.totalCount,
  };
}

/** The keys of a namespace's flags, in no particular order. */
export async function flagKeys({ db }: Executor, namespaceKey: string): Promise<string[]> {
  const rows = await db.selectFrom('flags').select('key').where('namespace_key', '=', namespaceKey).execute();
  return rows.map((row) => row.key);
}

/**
 * The flags of a namespace that have the given keys (at most a few hundred: one `in` list), as List
 * shows them, in the order of `keys`; a key no flag has is left out.
 */
export async function flagsWithKeys(executor: Executor, namespaceKey: string, keys: string[]): Promise<Flag[]> {
  if (keys.length === 0) return [];
  const [rows, variants] = await Promise.all([
    executor.db
      .selectFrom('flags')
      .selectAll()
      .where('namespace_key', '=', namespaceKey)
      .where('key', 'in', keys)
      .execute(),
    variantsOf(executor, namespaceKey, keys),
  ]);
  const byKey = new Map(rows.map((row) => [row.key, row]));
  return keys.flatMap((key) => {
    const row = byKey.get(key);
    return row ? [flagFromRow(row, variants.get(key) ?? [], 'list')] : [];
  });
}

export async function findFlag({ db }: Executor, namespaceKey: string, key: string): Promise<FlagsTable | undefined> {
  return db
    .selectFrom('flags')
    .selectAll()
    .where('namespace_key', '=', namespaceKey)
    .where('key', '=', key)
    .executeTakeFirst();
}

/** The flag's row, or Flipt's 404. */
export async function requireFlag(executor: Executor, namespaceKey: string, key: string): Promise<FlagsTable> {
  const row = await findFlag(executor, namespaceKey, key);
  if (!row) throw notFound(`flag "${namespaceKey}/${key}"`);
  return row;
}

export async function getFlag(executor: Executor, namespaceKey: string, key: string): Promise<Flag> {
  const flag = await flagIfAny(executor, namespaceKey, key);
  if (!flag) throw notFound(`flag "${namespaceKey}/${key}"`);
  return flag;
}

export async function flagIfAny(executor: Executor, namespaceKey: string, key: string): Promise<Flag | undefined> {
  const row = await findFlag(executor, namespaceKey, key);
  if (!row) return undefined;
  const variants = await variantsOf(executor, namespaceKey, [key]);
  return flagFromRow(row, variants.get(key) ?? [], 'get');
}

/** Metadata is stored as JSON text; an empty object is the same as none. */
function storedMetadata(metadata: Record<string, unknown>): string | null {
  return Object.keys(metadata).length > 0 ? JSON.stringify(metadata) : null;
}

export const notUniqueFlag = (namespaceKey: string, key: string) =>
  invalid(`flag "${namespaceKey}/${key}" is not unique`);

/** The row of a new flag (with no default variant unless one is given). */
export function flagRow(dialect: Dialect, input: CreateFlagInput, now: string, defaultVariantId?: string): FlagsTable {
  return {
    namespace_key: input.namespaceKey,
    key: input.key,
    name: input.name,
    description: input.description,
    enabled: fromBool(dialect, input.enabled),
    type: input.type,
    default_variant_id: defaultVariantId ?? null,
    metadata: input.metadata ? storedMetadata(input.metadata) : null,
    created_at: now,
    updated_at: now,
  };
}

export async function createFlag(executor: Executor, input: CreateFlagInput): Promise<Flag> {
  await requireNamespace(executor, input.namespaceKey);
  if (await findFlag(executor, input.namespaceKey, input.key)) throw notUniqueFlag(input.namespaceKey, input.key);
  const row = flagRow(executor.dialect, input, nowTimestamp());
  await executor.db.insertInto('flags').values(row).execute();
  return flagFromRow(row, [], 'get');
}

/** Full replacement of name, description, enabled and default variant; metadata only when given. */
export async function updateFlag(executor: Executor, input: UpdateFlagInput): Promise<Flag> {
  const { namespaceKey, key } = input;
  const row = await requireFlag(executor, namespaceKey, key);
  const variants = (await variantsOf(executor, namespaceKey, [key])).get(key) ?? [];
  if (input.defaultVariantId !== '' && !variants.some((variant) => variant.id === input.defaultVariantId)) {
    throw invalid(`variant "${input.defaultVariantId}" not found for flag "${namespaceKey}/${key}"`);
  }
  const changed = {
    name: input.name,
    description: input.description,
    enabled: fromBool(executor.dialect, input.enabled),
    default_variant_id: input.defaultVariantId || null,
    metadata: input.metadata ? storedMetadata(input.metadata) : row.metadata,
    updated_at: nowTimestamp(),
  };
  await executor.db
    .updateTable('flags')
    .set(changed)
    .where('namespace_key', '=', namespaceKey)
    .where('key', '=', key)
    .execute();
  return flagFromRow({ ...row, ...changed }, variants, 'get');
}

/** Idempotent; variants, rules, distributions and rollouts go with the flag (foreign keys). */
export async function deleteFlag(executor: Executor, namespaceKey: string, key: string): Promise<void> {
  await refuseIfSurveysLink(executor, namespaceKey, { flagKey: key });
  await executor.db.deleteFrom('flags').where('namespace_key', '=', namespaceKey).where('key', '=', key).execute();
}

async function variantKeyTaken(executor: Executor, input: CreateVariantInput, exceptId?: string): Promise<boolean> {
  let query = executor.db
    .selectFrom('variants')
    .select('id')
    .where('namespace_key', '=', input.namespaceKey)
    .where('flag_key', '=', input.flagKey)
    .where('key', '=', input.key);
  if (exceptId) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export const notUniqueVariant = (input: CreateVariantInput) =>
  invalid(`variant "${input.key}" is not unique for flag "${input.namespaceKey}/${input.flagKey}"`);

/** The row of a new variant, with a new id. */
export function variantRow(input: CreateVariantInput, now: string): VariantsTable {
  return {
    id: randomUUID(),
    namespace_key: input.namespaceKey,
    flag_key: input.flagKey,
    key: input.key,
    name: input.name,
    description: input.description,
    attachment: compactJson(input.attachment),
    created_at: now,
    updated_at: now,
  };
}

export async function createVariant(executor: Executor, input: CreateVariantInput): Promise<Variant> {
  await requireFlag(executor, input.namespaceKey, input.flagKey);
  if (await variantKeyTaken(executor, input)) throw notUniqueVariant(input);
  const row = variantRow(input, nowTimestamp());
  await executor.db.insertInto('variants').values(row).execute();
  return variantFromRow(row);
}

export async function updateVariant(executor: Executor, input: UpdateVariantInput): Promise<Variant> {
  const row = await executor.db
    .selectFrom('variants')
    .selectAll()
    .where('id', '=', input.id)
    .where('namespace_key', '=', input.namespaceKey)
    .where('flag_key', '=', input.flagKey)
    .executeTakeFirst();
  if (!row) throw notFound(`variant "${input.key}"`);
  if (await variantKeyTaken(executor, input, input.id)) throw notUniqueVariant(input);
  const changed = {
    key: input.key,
    name: input.name,
    description: input.description,
    attachment: compactJson(input.attachment),
    updated_at: nowTimestamp(),
  };
  await executor.db.updateTable('variants').set(changed).where('id', '=', input.id).execute();
  return variantFromRow({ ...row, ...changed });
}

/** Idempotent; distributions using the variant go with it, and a flag defaulting to it has no default after. */
export async function deleteVariant(
  executor: Executor,
  namespaceKey: string,
  flagKey: string,
  id: string,
): Promise<void> {
  await executor.db
    .updateTable('flags')
    .set({ default_variant_id: null })
    .where('namespace_key', '=', namespaceKey)
    .where('key', '=', flagKey)
    .where('default_variant_id', '=', id)
    .execute();
  await executor.db
    .deleteFrom('variants')
    .where('id', '=', id)
    .where('namespace_key', '=', namespaceKey)
    .where('flag_key', '=', flagKey)
    .execute();
}

/** JSON text without insignificant whitespace, every other character kept as written (so big numbers survive). */
export function compactJson(json: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json[i];
    if (inString) {
      out += c;
      if (c === '\\') out += json[++i];
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c !== ' ' && c !== '\n' && c !== '\r' && c !== '\t') {
      out += c;
    }
  }
  return out;
}
