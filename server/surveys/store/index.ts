/**
 * The survey store: every read and write of the survey provider's tables, in the Formbricks 1.6 wire
 * shapes, one module per entity (as `server/flipt/store`). Each module's functions take the database
 * first; `SurveyStore` binds them to one database, so routes call `store.person(id)`.
 */
import type { ChangeFeed } from '../../changes.js';
import type { Database } from '../../db/index.js';
import { notFound } from '../errors.js';
import * as actionClasses from './action-classes.js';
import { SURVEY_CONTENT, publishingContentWrites } from './content-changes.js';
import * as displays from './displays.js';
import * as environments from './environments.js';
import * as files from './files.js';
import * as people from './people.js';
import * as responses from './responses.js';
import * as surveys from './surveys.js';
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

const MODULES = [environments, surveys, actionClasses, people, displays, responses, files, visitors];

/** A module's store functions (those that take the database first), with the database bound. */
type Bound<M> = {
  // biome-ignore lint/suspicious/noExplicitAny: any argument list after the database
  [K in keyof M as M[K] extends (database: Database, ...args: any[]) => unknown ? K : never]: M[K] extends (
    database: Database,
    ...args: infer A
  ) => infer R
    ? (...args: A) => R
    : never;
};

export interface SurveyStore
  extends Bound<typeof environments>,
    Bound<typeof surveys>,
    Bound<typeof actionClasses>,
    Bound<typeof people>,
    Bound<typeof displays>,
    Bound<typeof responses>,
    Bound<typeof files>,
    Bound<typeof visitors> {}

export class SurveyStore {
  /** Every committed write to what the widget's sync sends is published on the change feed (content-changes.ts). */
  constructor(database: Database, changes: ChangeFeed) {
    database = publishingContentWrites(database, () => changes.publish(SURVEY_CONTENT));
    for (const module of MODULES) {
      for (const [name, value] of Object.entries(module)) {
        if (typeof value === 'function') Object.assign(this, { [name]: value.bind(undefined, database) });
      }
    }
  }

  /** Finds the row or throws the 404 Formbricks answers with. */
  static required<T>(value: T | undefined, type: string, id: string): T {
    if (value === undefined) throw notFound(type, id);
    return value;
  }
}
