/** Products and their environments, and the management API keys of an environment. */
import type { TEnvironment, TProduct } from '../../../domain/surveys/types.js';
import { fromBool, toBool } from '../../db/codec.js';
import type { Database } from '../../db/index.js';
import type { ProductSettings } from '../documents.js';
import { cuid } from '../ids.js';
import { AUTOMATIC_ACTIONS, ensureActionClass } from './action-classes.js';
import { hashApiKey, now } from './shared.js';

export async function environment(database: Database, id: string): Promise<TEnvironment | undefined> {
  const row = await database.db.selectFrom('survey_environments').selectAll().where('id', '=', id).executeTakeFirst();
  return row && environmentFromRow(row);
}

export async function product(database: Database, environment: TEnvironment): Promise<TProduct> {
  const row = await database.db
    .selectFrom('survey_products')
    .selectAll()
    .where('id', '=', environment.productId)
    .executeTakeFirstOrThrow();
  const environments = await database.db
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

/** Creates or updates a product and its environment, keeping their ids; the automatic action classes are ensured. */
export async function upsertEnvironment(
  database: Database,
  input: {
    productId: string;
    productName: string;
    settings: ProductSettings;
    environmentId: string;
    type: TEnvironment['type'];
  },
): Promise<void> {
  await database.transaction(async (trx) => {
    const at = now();
    const settings = JSON.stringify(input.settings);
    // Upserts, so that several instances seeding one PostgreSQL database at once do not collide.
    await trx
      .insertInto('survey_products')
      .values({ id: input.productId, name: input.productName, settings, created_at: at, updated_at: at })
      .onConflict((oc) => oc.column('id').doUpdateSet({ name: input.productName, settings, updated_at: at }))
      .execute();
    await trx
      .insertInto('survey_environments')
      .values({
        id: input.environmentId,
        product_id: input.productId,
        type: input.type,
        widget_setup_completed: fromBool(database.dialect, false),
        created_at: at,
        updated_at: at,
      })
      .onConflict((oc) =>
        oc.column('id').doUpdateSet({ product_id: input.productId, type: input.type, updated_at: at }),
      )
      .execute();
    for (const name of AUTOMATIC_ACTIONS)
      await ensureActionClass(database, input.environmentId, name, 'automatic', trx);
  });
}

export async function markWidgetSetupCompleted(database: Database, environmentId: string): Promise<void> {
  await database.db
    .updateTable('survey_environments')
    .set({ widget_setup_completed: fromBool(database.dialect, true) })
    .where('id', '=', environmentId)
    .execute();
}

export async function addApiKey(database: Database, environmentId: string, key: string, label: string): Promise<void> {
  await database.db
    .insertInto('survey_api_keys')
    .values({ id: cuid(), environment_id: environmentId, hashed_key: hashApiKey(key), label, created_at: now() })
    .onConflict((oc) => oc.column('hashed_key').doNothing())
    .execute();
}

export async function environmentForApiKey(database: Database, key: string): Promise<TEnvironment | undefined> {
  const row = await database.db
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
