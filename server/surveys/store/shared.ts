import { createHash } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/index.js';
import type { Database as Tables } from '../../db/schema.js';

/** The database, or a transaction on it. */
export type Executor = Database['db'] | Transaction<Tables>;

export const now = () => new Date().toISOString();

export const hashApiKey = (key: string) => createHash('sha256').update(key).digest('hex');
