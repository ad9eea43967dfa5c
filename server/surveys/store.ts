import { createHash } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Database } from '../db/index.js';
import type { Database as Tables, SurveyActionClassesTable } from '../db/schema.js';
import { fromBool, toBool } from '../db/codec.js';
import type {
  TActionClass,
  TEnvironment,
  TProduct,
  TResponseData,
  TResponseTtc,
  TSurvey,
} from '../../domain/surveys/types.js';
import type { ActionClassInput, ProductSettings, SurveyDocument } from './documents.js';
import { cuid } from './ids.js';
import { badRequest, notFound } from './errors.js';

/**
 * Bounds on a person's attributes (Formbricks sets none): they are sent to the widget with every
 * sync of that person, and one anonymous request with 20,000 of them stalled the server for seconds.
 */
export const MAX_ATTRIBUTES_PER_PERSON = 150;
export const MAX_ATTRIBUTE_KEY_LENGTH = 128;
export const MAX_ATTRIBUTE_VALUE_LENGTH = 1024;

/** The three action classes every environment is created with. */
export const AUTOMATIC_ACTIONS = ['New Session', 'Exit Intent (Desktop)', '50% Scroll'] as const;

export interface PersonRecord {
  id: string;
  userId: string;
  environmentId: string;
  attributes: Record<string, string>;
  createdAt: string;
  updatedAt: string;
}

export interface ResponseRecord {
  id: string;
  createdAt: string;
  updatedAt: string;
  surveyId: string;
  environmentId: string;
  person: { id: string; userId: string } | null;
  personAttributes: Record<string, string> | null;
  finished: boolean;
  data: TResponseData;
  ttc: TResponseTtc;
  meta: Record<string, unknown>;
}

export interface DisplayRecord {
  id: string;
  environmentId: string;
  createdAt: string;
  updatedAt: string;
  surveyId: string;
  personId: string | null;
  responseId: string | null;
}

type Executor = Database['db'] | Transaction<Tables>;

const now = () => new Date().toISOString();
export const hashApiKey = (key: string) => createHash('sha256').update(key).digest('hex');

/** Every read and write of the survey provider's tables, in the Formbricks 1.6 wire shapes. */
export class SurveyStore {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  // Environments and products

  async environment(id: string): Promise<TEnvironment | undefined> {
    const row = await this.db.selectFrom('survey_environments').selectAll().where('id', '=', id).executeTakeFirst();
    return row && environmentFromRow(row);
  }

  async product(environment: TEnvironment): Promise<TProduct> {
    const row = await this.db
      .selectFrom('survey_products')
      .selectAll()
      .where('id', '=', environment.productId)
      .executeTakeFirstOrThrow();
    const environments = await this.db
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
  async upsertEnvironment(input: {
    productId: string;
    productName: string;
    settings: ProductSettings;
    environmentId: string;
    type: TEnvironment['type'];
  }): Promise<void> {
    await this.database.transaction(async (trx) => {
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
          widget_setup_completed: fromBool(this.database.dialect, false),
          created_at: at,
          updated_at: at,
        })
        .onConflict((oc) =>
          oc.column('id').doUpdateSet({ product_id: input.productId, type: input.type, updated_at: at }),
        )
        .execute();
      for (const name of AUTOMATIC_ACTIONS) await this.ensureActionClass(input.environmentId, name, 'automatic', trx);
    });
  }

  async markWidgetSetupCompleted(environmentId: string): Promise<void> {
    await this.db
      .updateTable('survey_environments')
      .set({ widget_setup_completed: fromBool(this.database.dialect, true) })
      .where('id', '=', environmentId)
      .execute();
  }

  async addApiKey(environmentId: string, key: string, label: string): Promise<void> {
    await this.db
      .insertInto('survey_api_keys')
      .values({ id: cuid(), environment_id: environmentId, hashed_key: hashApiKey(key), label, created_at: now() })
      .onConflict((oc) => oc.column('hashed_key').doNothing())
      .execute();
  }

  async environmentForApiKey(key: string): Promise<TEnvironment | undefined> {
    const row = await this.db
      .selectFrom('survey_api_keys')
      .innerJoin('survey_environments', 'survey_environments.id', 'survey_api_keys.environment_id')
      .selectAll('survey_environments')
      .where('survey_api_keys.hashed_key', '=', hashApiKey(key))
      .executeTakeFirst();
    return row && environmentFromRow(row);
  }

  // Surveys

  async surveys(environmentId: string): Promise<TSurvey[]> {
    const rows = await this.db
      .selectFrom('surveys')
      .selectAll()
      .where('environment_id', '=', environmentId)
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map(surveyFromRow);
  }

  async survey(id: string): Promise<TSurvey | undefined> {
    const row = await this.db.selectFrom('surveys').selectAll().where('id', '=', id).executeTakeFirst();
    return row && surveyFromRow(row);
  }

  /** Creates the survey, or replaces the document of the survey with that id; trigger names get code action classes. */
  async saveSurvey(environmentId: string, name: string, document: SurveyDocument, id = cuid()): Promise<TSurvey> {
    await this.database.transaction(async (trx) => {
      const at = now();
      const json = JSON.stringify(document);
      await trx
        .insertInto('surveys')
        .values({ id, environment_id: environmentId, name, document: json, created_at: at, updated_at: at })
        .onConflict((oc) => oc.column('id').doUpdateSet({ name, document: json, updated_at: at }))
        .execute();
      for (const trigger of document.triggers) await this.ensureActionClass(environmentId, trigger, 'code', trx);
    });
    return (await this.survey(id))!;
  }

  /**
   * Marks the survey completed once it has `autoComplete` responses, as Formbricks does when a response
   * finishes.
   */
  async completeIfDue(surveyId: string): Promise<void> {
    const survey = await this.survey(surveyId);
    if (!survey || survey.autoComplete === null || survey.status === 'completed') return;
    const { count } = await this.db
      .selectFrom('survey_responses')
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
      .where('survey_id', '=', surveyId)
      .executeTakeFirstOrThrow();
    if (Number(count) < survey.autoComplete) return;
    const { id, createdAt: _c, updatedAt: _u, environmentId: _e, name: _n, ...document } = survey;
    await this.db
      .updateTable('surveys')
      .set({ document: JSON.stringify({ ...document, status: 'completed' }), updated_at: now() })
      .where('id', '=', id)
      .execute();
  }

  async deleteSurvey(id: string): Promise<void> {
    await this.db.deleteFrom('surveys').where('id', '=', id).execute();
  }

  // Action classes

  async actionClasses(environmentId: string): Promise<TActionClass[]> {
    const rows = await this.db
      .selectFrom('survey_action_classes')
      .selectAll()
      .where('environment_id', '=', environmentId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(actionClassFromRow);
  }

  async actionClass(id: string): Promise<TActionClass | undefined> {
    const row = await this.db.selectFrom('survey_action_classes').selectAll().where('id', '=', id).executeTakeFirst();
    return row && actionClassFromRow(row);
  }

  async actionClassByName(environmentId: string, name: string): Promise<TActionClass | undefined> {
    const row = await this.db
      .selectFrom('survey_action_classes')
      .selectAll()
      .where('environment_id', '=', environmentId)
      .where('name', '=', name)
      .executeTakeFirst();
    return row && actionClassFromRow(row);
  }

  /** Creates the action class, or updates the one with the same name (seeding is idempotent). */
  async saveActionClass(environmentId: string, input: ActionClassInput): Promise<TActionClass> {
    const at = now();
    const values = {
      description: input.description,
      type: input.type,
      no_code_config: input.noCodeConfig ? JSON.stringify(input.noCodeConfig) : null,
      updated_at: at,
    };
    await this.db
      .insertInto('survey_action_classes')
      .values({ id: cuid(), environment_id: environmentId, name: input.name, created_at: at, ...values })
      .onConflict((oc) => oc.columns(['environment_id', 'name']).doUpdateSet(values))
      .execute();
    return (await this.actionClassByName(environmentId, input.name))!;
  }

  async deleteActionClass(id: string): Promise<void> {
    await this.db.deleteFrom('survey_action_classes').where('id', '=', id).execute();
  }

  /** The id of the named action class, created with `type` when missing. */
  async ensureActionClass(
    environmentId: string,
    name: string,
    type: TActionClass['type'],
    executor: Executor = this.db,
  ): Promise<string> {
    const existing = await executor
      .selectFrom('survey_action_classes')
      .select('id')
      .where('environment_id', '=', environmentId)
      .where('name', '=', name)
      .executeTakeFirst();
    if (existing) return existing.id;
    const id = cuid();
    const at = now();
    await executor
      .insertInto('survey_action_classes')
      .values({
        id,
        environment_id: environmentId,
        name,
        description: null,
        type,
        no_code_config: null,
        created_at: at,
        updated_at: at,
      })
      .onConflict((oc) => oc.columns(['environment_id', 'name']).doNothing())
      .execute();
    return (
      await executor
        .selectFrom('survey_action_classes')
        .select('id')
        .where('environment_id', '=', environmentId)
        .where('name', '=', name)
        .executeTakeFirstOrThrow()
    ).id;
  }

  async recordAction(environmentId: string, personId: string, actionClassId: string): Promise<void> {
    const at = now();
    await this.db
      .insertInto('survey_actions')
      .values({
        id: cuid(),
        environment_id: environmentId,
        person_id: personId,
        action_class_id: actionClassId,
        created_at: at,
        updated_at: at,
      })
      .execute();
  }

  // People and attributes

  /** The person's id, created when the environment has no person with that userId yet. */
  async ensurePerson(environmentId: string, userId: string): Promise<string> {
    const find = () =>
      this.db
        .selectFrom('survey_people')
        .select('id')
        .where('environment_id', '=', environmentId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
    const existing = await find();
    if (existing) return existing.id;
    const at = now();
    await this.db
      .insertInto('survey_people')
      .values({ id: cuid(), environment_id: environmentId, user_id: userId, created_at: at, updated_at: at })
      .onConflict((oc) => oc.columns(['environment_id', 'user_id']).doNothing())
      .execute();
    return (await find())!.id;
  }

  async people(environmentId: string): Promise<PersonRecord[]> {
    const rows = await this.db
      .selectFrom('survey_people')
      .selectAll()
      .where('environment_id', '=', environmentId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    const attributes = await this.attributesOf(rows.map((row) => row.id));
    return rows.map((row) => personFromRow(row, attributes.get(row.id) ?? {}));
  }

  async person(id: string): Promise<PersonRecord | undefined> {
    const row = await this.db.selectFrom('survey_people').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    return personFromRow(row, (await this.attributesOf([id])).get(id) ?? {});
  }

  async deletePerson(id: string): Promise<void> {
    await this.db.deleteFrom('survey_people').where('id', '=', id).execute();
  }

  async attributes(personId: string): Promise<Record<string, string>> {
    return (await this.attributesOf([personId])).get(personId) ?? {};
  }

  private async attributesOf(personIds: string[]): Promise<Map<string, Record<string, string>>> {
    const result = new Map<string, Record<string, string>>();
    if (personIds.length === 0) return result;
    const rows = await this.db
      .selectFrom('survey_attributes')
      .selectAll()
      .where('person_id', 'in', personIds)
      .orderBy('key')
      .execute();
    for (const row of rows) {
      const attributes = result.get(row.person_id) ?? {};
      attributes[row.key] = row.value;
      result.set(row.person_id, attributes);
    }
    return result;
  }

  /** Stores the attributes (values as strings); returns whether any value changed. */
  /** Sets the given attributes; refused when the person would have more than MAX_ATTRIBUTES_PER_PERSON. */
  async updateAttributes(personId: string, attributes: Record<string, string>): Promise<boolean> {
    const current = await this.attributes(personId);
    const changed = Object.entries(attributes).filter(([key, value]) => current[key] !== value);
    if (changed.length === 0) return false;
    if (new Set([...Object.keys(current), ...Object.keys(attributes)]).size > MAX_ATTRIBUTES_PER_PERSON) {
      throw badRequest(`a person may have at most ${MAX_ATTRIBUTES_PER_PERSON} attributes`);
    }
    await this.database.transaction(async (trx) => {
      const at = now();
      for (const [key, value] of changed) {
        await trx
          .insertInto('survey_attributes')
          .values({ person_id: personId, key, value, created_at: at, updated_at: at })
          .onConflict((oc) => oc.columns(['person_id', 'key']).doUpdateSet({ value, updated_at: at }))
          .execute();
      }
      await trx.updateTable('survey_people').set({ updated_at: at }).where('id', '=', personId).execute();
    });
    return true;
  }

  // Displays

  async createDisplay(environmentId: string, surveyId: string, personId: string | null): Promise<string> {
    const id = cuid();
    const at = now();
    await this.db
      .insertInto('survey_displays')
      .values({
        id,
        environment_id: environmentId,
        survey_id: surveyId,
        person_id: personId,
        response_id: null,
        created_at: at,
        updated_at: at,
      })
      .execute();
    return id;
  }

  async display(id: string): Promise<DisplayRecord | undefined> {
    const row = await this.db.selectFrom('survey_displays').selectAll().where('id', '=', id).executeTakeFirst();
    return row && displayFromRow(row);
  }

  async updateDisplay(id: string, changes: { responseId?: string; personId?: string }): Promise<void> {
    await this.db
      .updateTable('survey_displays')
      .set({
        ...(changes.responseId !== undefined ? { response_id: changes.responseId } : {}),
        ...(changes.personId !== undefined ? { person_id: changes.personId } : {}),
        updated_at: now(),
      })
      .where('id', '=', id)
      .execute();
  }

  /** The person's displays, newest first. */
  async displaysOfPerson(personId: string): Promise<DisplayRecord[]> {
    const rows = await this.db
      .selectFrom('survey_displays')
      .selectAll()
      .where('person_id', '=', personId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map(displayFromRow);
  }

  async displays(environmentId: string, surveyId?: string): Promise<DisplayRecord[]> {
    let query = this.db.selectFrom('survey_displays').selectAll().where('environment_id', '=', environmentId);
    if (surveyId) query = query.where('survey_id', '=', surveyId);
    const rows = await query.orderBy('created_at').orderBy('id').execute();
    return rows.map(displayFromRow);
  }

  // Responses

  async createResponse(input: {
    environmentId: string;
    surveyId: string;
    personId: string | null;
    finished: boolean;
    data: TResponseData;
    meta: Record<string, unknown>;
    personAttributes: Record<string, string> | null;
  }): Promise<string> {
    const id = cuid();
    const at = now();
    await this.db
      .insertInto('survey_responses')
      .values({
        id,
        environment_id: input.environmentId,
        survey_id: input.surveyId,
        person_id: input.personId,
        finished: fromBool(this.database.dialect, input.finished),
        data: JSON.stringify(input.data),
        ttc: '{}',
        meta: JSON.stringify(input.meta),
        person_attributes: input.personAttributes ? JSON.stringify(input.personAttributes) : null,
        created_at: at,
        updated_at: at,
      })
      .execute();
    return id;
  }

  async response(id: string): Promise<ResponseRecord | undefined> {
    return (await this.responsesWhere({ id }))[0];
  }

  async responses(environmentId: string, surveyId?: string): Promise<ResponseRecord[]> {
    return this.responsesWhere({ environmentId, surveyId });
  }

  private async responsesWhere(filter: {
    id?: string;
    environmentId?: string;
    surveyId?: string;
  }): Promise<ResponseRecord[]> {
    const rows = await this.db
      .selectFrom('survey_responses')
      .leftJoin('survey_people', 'survey_people.id', 'survey_responses.person_id')
      .selectAll('survey_responses')
      .select('survey_people.user_id')
      .$if(filter.id !== undefined, (query) => query.where('survey_responses.id', '=', filter.id!))
      .$if(filter.environmentId !== undefined, (query) =>
        query.where('survey_responses.environment_id', '=', filter.environmentId!),
      )
      .$if(filter.surveyId !== undefined, (query) => query.where('survey_responses.survey_id', '=', filter.surveyId!))
      .orderBy('survey_responses.created_at', 'desc')
      .orderBy('survey_responses.id', 'desc')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      surveyId: row.survey_id,
      environmentId: row.environment_id,
      person: row.person_id && row.user_id ? { id: row.person_id, userId: row.user_id } : null,
      personAttributes: row.person_attributes ? JSON.parse(row.person_attributes) : null,
      finished: toBool(row.finished),
      data: JSON.parse(row.data),
      ttc: JSON.parse(row.ttc),
      meta: JSON.parse(row.meta),
    }));
  }

  /**
   * Shallow-merges `data` into the stored data and replaces the stored ttc; a finished response's ttc
   * gains `_total`, the sum of the others. Runs in one transaction so concurrent updates do not lose keys.
   * Returns the response's survey id, or undefined when the environment has no such response.
   */
  async updateResponse(
    environmentId: string,
    id: string,
    update: { finished: boolean; data: TResponseData; ttc?: TResponseTtc },
  ): Promise<string | undefined> {
    return this.database.transaction(async (trx) => {
      const row = await trx
        .selectFrom('survey_responses')
        .select(['data', 'ttc', 'survey_id'])
        .where('id', '=', id)
        .where('environment_id', '=', environmentId)
        .$if(this.database.dialect === 'postgres', (query) => query.forUpdate())
        .executeTakeFirst();
      if (!row) return undefined;
      const data = { ...JSON.parse(row.data), ...update.data };
      let ttc: TResponseTtc = update.ttc ?? JSON.parse(row.ttc);
      if (update.finished) {
        const { _total: _, ...steps } = ttc;
        ttc = { ...steps, _total: Object.values(steps).reduce((sum, value) => sum + value, 0) };
      }
      await trx
        .updateTable('survey_responses')
        .set({
          data: JSON.stringify(data),
          ttc: JSON.stringify(ttc),
          finished: fromBool(this.database.dialect, update.finished),
          updated_at: now(),
        })
        .where('id', '=', id)
        .execute();
      return row.survey_id;
    });
  }

  async deleteResponse(id: string): Promise<void> {
    await this.db.deleteFrom('survey_responses').where('id', '=', id).execute();
  }

  // Files

  async recordFile(file: {
    environmentId: string;
    surveyId: string;
    fileName: string;
    fileType: string;
    size: number;
  }): Promise<void> {
    await this.db
      .insertInto('survey_files')
      .values({
        id: cuid(),
        environment_id: file.environmentId,
        survey_id: file.surveyId,
        file_name: file.fileName,
        file_type: file.fileType,
        size: file.size,
        created_at: now(),
      })
      .onConflict((oc) => oc.columns(['environment_id', 'file_name']).doNothing())
      .execute();
  }

  /** What the environment's recorded uploads take in all, in bytes. */
  async uploadedBytes(environmentId: string): Promise<number> {
    const row = await this.db
      .selectFrom('survey_files')
      .select((eb) => eb.fn.sum<number | string | null>('size').as('total'))
      .where('environment_id', '=', environmentId)
      .executeTakeFirst();
    return Number(row?.total ?? 0);
  }

  async file(environmentId: string, fileName: string) {
    return this.db
      .selectFrom('survey_files')
      .select(['file_name', 'file_type', 'size'])
      .where('environment_id', '=', environmentId)
      .where('file_name', '=', fileName)
      .executeTakeFirst();
  }

  /** Finds the row or throws the 404 Formbricks answers with. */
  static required<T>(value: T | undefined, type: string, id: string): T {
    if (value === undefined) throw notFound(type, id);
    return value;
  }
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

function surveyFromRow(row: {
  id: string;
  environment_id: string;
  name: string;
  document: string;
  created_at: string;
  updated_at: string;
}): TSurvey {
  const document = JSON.parse(row.document) as SurveyDocument;
  return {
    id: row.id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    name: row.name,
    environmentId: row.environment_id,
    ...document,
  };
}

function actionClassFromRow(row: SurveyActionClassesTable): TActionClass {
  return {
    id: row.id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    name: row.name,
    description: row.description,
    type: row.type as TActionClass['type'],
    noCodeConfig: row.no_code_config ? JSON.parse(row.no_code_config) : null,
    environmentId: row.environment_id,
  };
}

function personFromRow(
  row: { id: string; user_id: string; environment_id: string; created_at: string; updated_at: string },
  attributes: Record<string, string>,
): PersonRecord {
  return {
    id: row.id,
    userId: row.user_id,
    environmentId: row.environment_id,
    attributes,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function displayFromRow(row: {
  id: string;
  environment_id: string;
  survey_id: string;
  person_id: string | null;
  response_id: string | null;
  created_at: string;
  updated_at: string;
}): DisplayRecord {
  return {
    id: row.id,
    environmentId: row.environment_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    surveyId: row.survey_id,
    personId: row.person_id,
    responseId: row.response_id,
  };
}
