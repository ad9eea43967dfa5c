/**
 * The tables of Ensign's database, as Kysely sees them. One interface per table;
 * columns use the representation both dialects share (see `codec.ts`).
 * Each area adds its tables here together with its migration.
 */
export interface NamespacesTable {
  key: string;
  name: string;
  description: string;
  protected: number | boolean;
  created_at: string;
  updated_at: string;
}

export interface Database {
  namespaces: NamespacesTable;
}
