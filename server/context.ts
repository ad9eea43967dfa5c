import type { Config } from './config.js';
import type { Database } from './db/index.js';

/** What every route module is given: the resolved configuration and the open database. */
export interface AppContext {
  config: Config;
  database: Database;
}
