import { createHash } from 'node:crypto';

export const now = () => new Date().toISOString();

export const hashApiKey = (key: string) => createHash('sha256').update(key).digest('hex');

/** A page of a listing, as the management API's `limit` and `skip` name it (`pageOf` reads them). */
export interface Page {
  limit: number;
  skip: number;
}

/** The query limited to the page, when there is one. */
export function paged<Q extends { limit(n: number): Q; offset(n: number): Q }>(query: Q, page?: Page): Q {
  return page ? query.limit(page.limit).offset(page.skip) : query;
}

/** The query's rows in the order they were created (ties by id), limited to the page when there is one. */
export function inCreationOrder<
  Q extends { orderBy(column: 'created_at' | 'id'): Q; limit(n: number): Q; offset(n: number): Q },
>(query: Q, page?: Page): Q {
  return paged(query.orderBy('created_at').orderBy('id'), page);
}
