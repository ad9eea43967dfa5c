import type { Kysely } from 'kysely';
import type { Database as Tables } from '../../db/schema.js';
import type { Dialect } from '../../db/codec.js';

/**
 * What the store's query functions run on: the open database itself (reads) or one of its
 * transactions (writes), together with the dialect for the row codecs.
 */
export interface Executor {
  readonly db: Kysely<Tables>;
  readonly dialect: Dialect;
}

/** Parent keys per `in (...)` list when children are read by their parents (children.ts). */
export const MAX_KEYS_IN_QUERY = 500;
