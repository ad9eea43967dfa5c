/**
 * The survey store: every read and write of the survey provider's tables, in the Formbricks 1.6 wire
 * shapes, one module per entity (as `server/flipt/store`). Each module's functions take an `Executor`
 * first (server/db/executor.ts); `SurveyStore` has a method for each that routes call, run on one
 * database, so routes call `store.person(id)`.
 */
import type { TEnvironment } from '../../../domain/surveys/types.js';
import type { FlagAssignment } from '../../../domain/surveys/eligibility.js';
import type { ChangeFeed } from '../../changes.js';
import type { Executor } from '../../db/executor.js';
import type { Database } from '../../db/index.js';
import type { ActionClassInput, ProductSettings, SurveyDocument } from '../documents.js';
import { notFound } from '../errors.js';
import * as actionClasses from './action-classes.js';
import { SURVEY_CONTENT, publishingContentWrites } from './content-changes.js';
import * as displays from './displays.js';
import type { DisplayChanges } from './displays.js';
import * as environments from './environments.js';
import type { EnvironmentInput } from './environments.js';
import * as files from './files.js';
import type { FileInput } from './files.js';
import * as people from './people.js';
import * as responses from './responses.js';
import type { ResponseInput, ResponseUpdate } from './responses.js';
import * as surveys from './surveys.js';
import type { Page } from './shared.js';
import * as visitors from './visitors.js';

export { AUTOMATIC_ACTIONS, MAX_ACTION_NAME_LENGTH, MAX_CLIENT_ACTION_CLASSES } from './action-classes.js';
export type { DisplayRecord } from './displays.js';
export {
  MAX_ATTRIBUTE_KEY_LENGTH,
  MAX_ATTRIBUTE_VALUE_LENGTH,
  MAX_ATTRIBUTES_PER_PERSON,
  type PersonRecord,
} from './people.js';
export type { ResponseRecord } from './responses.js';
export type { StoredVisitor, VisitorDisplay } from './visitors.js';
export { hashApiKey } from './shared.js';
export { SURVEY_CONTENT } from './content-changes.js';

export class SurveyStore {
  private readonly executor: Executor;
  /** `{environmentId} {generation}` of the SDK generations this process has recorded or found recorded. */
  private readonly generations = new Set<string>();

  /**
   * Every committed write to what the widget's sync sends is published on the change feed (content-changes.ts).
   * `maxPeople`: what one environment may hold (`surveys.max_people`).
   */
  constructor(
    database: Database,
    changes: ChangeFeed,
    private readonly maxPeople = 1_000_000,
  ) {
    this.executor = publishingContentWrites(database, () => changes.publish(SURVEY_CONTENT));
  }

  /** Finds the row or throws the 404 Formbricks answers with. */
  static required<T>(value: T | undefined, type: string, id: string): T {
    if (value === undefined) throw notFound(type, id);
    return value;
  }

  // environments.ts
  environment(id: string) {
    return environments.environment(this.executor, id);
  }
  product(environment: TEnvironment) {
    return environments.product(this.executor, environment);
  }
  upsertEnvironment(input: EnvironmentInput) {
    return environments.upsertEnvironment(this.executor, input);
  }
  markWidgetSetupCompleted(environmentId: string) {
    return environments.markWidgetSetupCompleted(this.executor, environmentId);
  }
  /**
   * Records that a widget of this SDK generation synced with the environment, for the console; asks the
   * database once per process (nothing for an unknown environment).
   */
  async recordSdkGeneration(environmentId: string, generation: string): Promise<void> {
    const key = `${environmentId} ${generation}`;
    if (this.generations.has(key)) return;
    if (await environments.recordSdkGeneration(this.executor, environmentId, generation)) this.generations.add(key);
  }
  /** Whether this process has recorded the generation (the hot paths hand the request over to Fastify until then). */
  sdkGenerationRecorded(environmentId: string, generation: string): boolean {
    return this.generations.has(`${environmentId} ${generation}`);
  }
  addApiKey(environmentId: string, key: string, label: string) {
    return environments.addApiKey(this.executor, environmentId, key, label);
  }
  apiKeys(environmentId: string) {
    return environments.apiKeys(this.executor, environmentId);
  }
  createApiKey(environmentId: string, label: string) {
    return environments.createApiKey(this.executor, environmentId, label);
  }
  deleteApiKey(environmentId: string, id: string) {
    return environments.deleteApiKey(this.executor, environmentId, id);
  }
  namespaceEnvironments(namespaceKey: string) {
    return environments.namespaceEnvironments(this.executor, namespaceKey);
  }
  namespaceEnvironment(namespaceKey: string, environmentId: string) {
    return environments.namespaceEnvironment(this.executor, namespaceKey, environmentId);
  }
  createNamespaceEnvironments(namespaceKey: string, productName: string, settings: ProductSettings) {
    return environments.createNamespaceEnvironments(this.executor, namespaceKey, productName, settings);
  }
  updateProduct(productId: string, name: string, settings: ProductSettings) {
    return environments.updateProduct(this.executor, productId, name, settings);
  }
  environmentForApiKey(key: string) {
    return environments.environmentForApiKey(this.executor, key);
  }

  // surveys.ts
  surveys(environmentId: string) {
    return surveys.surveys(this.executor, environmentId);
  }
  surveysWithCounts(environmentId: string) {
    return surveys.surveysWithCounts(this.executor, environmentId);
  }
  survey(id: string) {
    return surveys.survey(this.executor, id);
  }
  saveSurvey(environmentId: string, name: string, document: SurveyDocument, id?: string) {
    return surveys.saveSurvey(this.executor, environmentId, name, document, id);
  }
  completeIfDue(surveyId: string) {
    return surveys.completeIfDue(this.executor, surveyId);
  }
  deleteSurvey(id: string) {
    return surveys.deleteSurvey(this.executor, id);
  }

  // action-classes.ts
  actionClasses(environmentId: string, page?: Page) {
    return actionClasses.actionClasses(this.executor, environmentId, page);
  }
  noCodeActionClasses(environmentId: string) {
    return actionClasses.noCodeActionClasses(this.executor, environmentId);
  }
  clientActionClass(environmentId: string, name: string, type: 'code' | 'automatic') {
    return actionClasses.clientActionClass(this.executor, environmentId, name, type);
  }
  actionClassesWithUsage(environmentId: string) {
    return actionClasses.actionClassesWithUsage(this.executor, environmentId);
  }
  actionClass(id: string) {
    return actionClasses.actionClass(this.executor, id);
  }
  actionClassByName(environmentId: string, name: string) {
    return actionClasses.actionClassByName(this.executor, environmentId, name);
  }
  saveActionClass(environmentId: string, input: ActionClassInput) {
    return actionClasses.saveActionClass(this.executor, environmentId, input);
  }
  updateActionClass(id: string, input: ActionClassInput) {
    return actionClasses.updateActionClass(this.executor, id, input);
  }
  deleteActionClass(id: string) {
    return actionClasses.deleteActionClass(this.executor, id);
  }
  recordAction(environmentId: string, personId: string, actionClassId: string) {
    return actionClasses.recordAction(this.executor, environmentId, personId, actionClassId);
  }

  // visitors.ts
  visitor(environmentId: string, userId: string) {
    return visitors.visitor(this.executor, environmentId, userId);
  }

  // people.ts
  ensurePerson(environmentId: string, userId: string) {
    return people.ensurePerson(this.executor, environmentId, userId, this.maxPeople);
  }
  people(environmentId: string, page?: Page) {
    return people.people(this.executor, environmentId, page);
  }
  person(id: string) {
    return people.person(this.executor, id);
  }
  deletePerson(id: string) {
    return people.deletePerson(this.executor, id);
  }
  attributes(personId: string) {
    return people.attributes(this.executor, personId);
  }
  updateAttributes(personId: string, given: Record<string, string>) {
    return people.updateAttributes(this.executor, personId, given);
  }

  // displays.ts
  createDisplay(environmentId: string, surveyId: string, personId: string | null, flag?: FlagAssignment | null) {
    return displays.createDisplay(this.executor, environmentId, surveyId, personId, flag);
  }
  display(id: string) {
    return displays.display(this.executor, id);
  }
  updateDisplay(id: string, changes: DisplayChanges) {
    return displays.updateDisplay(this.executor, id, changes);
  }
  displaysOfPerson(personId: string) {
    return displays.displaysOfPerson(this.executor, personId);
  }
  displays(environmentId: string, surveyId?: string, page?: Page) {
    return displays.displays(this.executor, environmentId, surveyId, page);
  }

  // responses.ts
  createResponse(input: ResponseInput) {
    return responses.createResponse(this.executor, input);
  }
  response(id: string) {
    return responses.response(this.executor, id);
  }
  updateResponse(environmentId: string, id: string, update: ResponseUpdate) {
    return responses.updateResponse(this.executor, environmentId, id, update);
  }
  deleteResponse(id: string) {
    return responses.deleteResponse(this.executor, id);
  }

  // files.ts
  recordFile(file: FileInput) {
    return files.recordFile(this.executor, file);
  }
  file(environmentId: string, fileName: string) {
    return files.file(this.executor, environmentId, fileName);
  }
  uploadedBytes(environmentId: string) {
    return files.uploadedBytes(this.executor, environmentId);
  }
}
