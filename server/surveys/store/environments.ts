/** Products and their environments, and the management API keys of an environment. */
import type { TEnvironment, TProduct } from '../../../domain/surveys/types.js';
import { fromBool, toBool } from '../../db/codec.js';
import { randomBytes } from 'node:crypto';
import { type Executor, inTransaction } from '../../db/executor.js';
import type { ProductSettings } from '../documents.js';
import { cuid } from '../ids.js';
import { AUTOMATIC_ACTIONS, ensureActionClass } from './action-classes.js';
import { hashApiKey, inCreationOrder, now } from './shared.js';

export async function environment(executor: Executor, id: string): Promise<TEnvironment | undefined> {
  const row = await executor.db.selectFrom('survey_environments').selectAll().where('id', '=', id).executeTakeFirst();
  return row && environmentFromRow(row);
}

export async function product(executor: Executor, environment: TEnvironment): Promise<TProduct> {
  const row = await executor.db
    .selectFrom('survey_products')
    .selectAll()
    .where('id', '=', environment.productId)
    .executeTakeFirstOrThrow();
  const environments = await executor.db
    .selectFrom('survey_environments')
    .selectAll()
    .where('product_id', '=', row.id)
    .orderBy('id')
    .execute();
  return {
    id: row.id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    name: row.name,
    teamId: row.id,
    ...(JSON.parse(row.settings) as ProductSettings),
    environments: environments.map(environmentFromRow),
  };
}

export interface EnvironmentInput {
  productId: string;
  productName: string;
  settings: ProductSettings;
  environmentId: string;
  type: TEnvironment['type'];
  namespaceKey: string;
}

/** Creates or updates a product and its environment, keeping their ids; the automatic action classes are ensured. */
export async function upsertEnvironment(executor: Executor, input: EnvironmentInput): Promise<void> {
  await inTransaction(executor, async (trx) => {
    const at = now();
    const settings = JSON.stringify(input.settings);
    // Upserts, so that several instances seeding one PostgreSQL database at once do not collide.
    await trx.db
      .insertInto('survey_products')
      .values({
        id: input.productId,
        name: input.productName,
        settings,
        namespace_key: input.namespaceKey,
        created_at: at,
        updated_at: at,
      })
      .onConflict((oc) =>
        oc
          .column('id')
          .doUpdateSet({ name: input.productName, settings, namespace_key: input.namespaceKey, updated_at: at }),
      )
      .execute();
    await trx.db
      .insertInto('survey_environments')
      .values({
        id: input.environmentId,
        product_id: input.productId,
        type: input.type,
        widget_setup_completed: fromBool(executor.dialect, false),
        created_at: at,
        updated_at: at,
      })
      .onConflict((oc) =>
        oc.column('id').doUpdateSet({ product_id: input.productId, type: input.type, updated_at: at }),
      )
      .execute();
    for (const name of AUTOMATIC_ACTIONS) await ensureActionClass(trx, input.environmentId, name, 'automatic');
  });
}

export async function markWidgetSetupCompleted(executor: Executor, environmentId: string): Promise<void> {
  await executor.db
    .updateTable('survey_environments')
    .set({ widget_setup_completed: fromBool(executor.dialect, true) })
    .where('id', '=', environmentId)
    .execute();
}

export async function addApiKey(executor: Executor, environmentId: string, key: string, label: string): Promise<void> {
  await executor.db
    .insertInto('survey_api_keys')
    .values({
      id: cuid(),
      environment_id: environmentId,
      hashed_key: hashApiKey(key),
      label,
      key_prefix: key.slice(0, API_KEY_PREFIX_LENGTH),
      created_at: now(),
    })
    .onConflict((oc) => oc.column('hashed_key').doNothing())
    .execute();
}

/** How many of a key's first characters the console shows to tell keys apart. */
const API_KEY_PREFIX_LENGTH = 6;

export interface ApiKeyRecord {
  id: string;
  label: string;
  prefix: string;
  createdAt: string;
}

export async function apiKeys(executor: Executor, environmentId: string): Promise<ApiKeyRecord[]> {
  const query = executor.db
    .selectFrom('survey_api_keys')
    .select(['id', 'label', 'key_prefix', 'created_at'])
    .where('environment_id', '=', environmentId);
  const rows = await inCreationOrder(query).execute();
  return rows.map((row) => ({ id: row.id, label: row.label, prefix: row.key_prefix, createdAt: row.created_at }));
}

/** Creates a management API key; the key itself is returned here once and only its hash is stored. */
export async function createApiKey(
  executor: Executor,
  environmentId: string,
  label: string,
): Promise<ApiKeyRecord & { apiKey: string }> {
  const apiKey = randomBytes(24).toString('hex');
  await addApiKey(executor, environmentId, apiKey, label);
  const row = await executor.db
    .selectFrom('survey_api_keys')
    .select(['id', 'label', 'key_prefix', 'created_at'])
    .where('hashed_key', '=', hashApiKey(apiKey))
    .executeTakeFirstOrThrow();
  return { id: row.id, label: row.label, prefix: row.key_prefix, createdAt: row.created_at, apiKey };
}

/** Revokes a key of the environment; false when it has no such key. */
export async function deleteApiKey(executor: Executor, environmentId: string, id: string): Promise<boolean> {
  const result = await executor.db
    .deleteFrom('survey_api_keys')
    .where('environment_id', '=', environmentId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * An environment as the console shows it: with its product's name, settings and namespace, and the SDK
 * generations whose widgets have synced with it.
 */
export interface NamespaceEnvironment extends TEnvironment {
  namespaceKey: string;
  product: { id: string; name: string } & ProductSettings;
  sdkGenerations: string[];
}

const generationsOf = (column: string): string[] => (column ? column.split(',') : []);

/**
 * Records that a widget of this SDK generation (`1.6`, `5`, `current`) synced with the environment; written only when the
 * generation is new to it. False when there is no such environment.
 */
export async function recordSdkGeneration(
  executor: Executor,
  environmentId: string,
  generation: string,
): Promise<boolean> {
  const row = await executor.db
    .selectFrom('survey_environments')
    .select('sdk_generations')
    .where('id', '=', environmentId)
    .executeTakeFirst();
  if (!row) return false;
  const seen = generationsOf(row.sdk_generations);
  if (!seen.includes(generation)) {
    await executor.db
      .updateTable('survey_environments')
      .set({ sdk_generations: [...seen, generation].join(',') })
      .where('id', '=', environmentId)
      .execute();
  }
  return true;
}

/** The survey environments of a namespace, production first. */
export async function namespaceEnvironments(executor: Executor, namespaceKey: string): Promise<NamespaceEnvironment[]> {
  const rows = await executor.db
    .selectFrom('survey_environments')
    .innerJoin('survey_products', 'survey_products.id', 'survey_environments.product_id')
    .selectAll('survey_environments')
    .select(['survey_products.name as product_name', 'survey_products.settings', 'survey_products.namespace_key'])
    .where('survey_products.namespace_key', '=', namespaceKey)
    .orderBy('survey_products.created_at')
    .orderBy('survey_environments.type', 'desc')
    .orderBy('survey_environments.id')
    .execute();
  return rows.map((row) => ({
    ...environmentFromRow(row),
    namespaceKey: row.namespace_key,
    product: { id: row.product_id, name: row.product_name, ...(JSON.parse(row.settings) as ProductSettings) },
    sdkGenerations: generationsOf(row.sdk_generations),
  }));
}

/** The environment, when it belongs to the namespace. */
export async function namespaceEnvironment(
  executor: Executor,
  namespaceKey: string,
  environmentId: string,
): Promise<NamespaceEnvironment | undefined> {
  return (await namespaceEnvironments(executor, namespaceKey)).find((environment) => environment.id === environmentId);
}

/** A product for the namespace with a production and a development environment, as Formbricks pairs them. */
export async function createNamespaceEnvironments(
  executor: Executor,
  namespaceKey: string,
  productName: string,
  settings: ProductSettings,
): Promise<NamespaceEnvironment[]> {
  const productId = cuid();
  for (const type of ['production', 'development'] as const) {
    await upsertEnvironment(executor, {
      productId,
      productName,
      settings,
      environmentId: cuid(),
      type,
      namespaceKey,
    });
  }
  return namespaceEnvironments(executor, namespaceKey);
}

/** Renames a product and replaces its settings (what the sync sends with every environment of the product). */
export async function updateProduct(
  executor: Executor,
  productId: string,
  name: string,
  settings: ProductSettings,
): Promise<void> {
  await executor.db
    .updateTable('survey_products')
    .set({ name, settings: JSON.stringify(settings), updated_at: now() })
    .where('id', '=', productId)
    .execute();
}

export async function environmentForApiKey(executor: Executor, key: string): Promise<TEnvironment | undefined> {
  const row = await executor.db
    .selectFrom('survey_api_keys')
    .innerJoin('survey_environments', 'survey_environments.id', 'survey_api_keys.environment_id')
    .selectAll('survey_environments')
    .where('survey_api_keys.hashed_key', '=', hashApiKey(key))
    .executeTakeFirst();
  return row && environmentFromRow(row);
}

function environmentFromRow(row: {
  id: string;
  product_id: string;
  type: string;
  widget_setup_completed: number | boolean;
  created_at: string;
  updated_at: string;
}): TEnvironment {
  return {
    id: row.id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    type: row.type as TEnvironment['type'],
    productId: row.product_id,
    widgetSetupCompleted: toBool(row.widget_setup_completed),
  };
}
