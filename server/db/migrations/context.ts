/** What every migration is given besides the database handle. */
export interface MigrationContext {
  dialect: 'sqlite' | 'postgres';
}
