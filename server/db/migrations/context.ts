import type { Dialect } from '../codec.js';

/** What every migration is given besides the database handle. */
export interface MigrationContext {
  dialect: Dialect;
}
