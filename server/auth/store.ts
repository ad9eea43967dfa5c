import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Authentication, AuthMethod } from '../../domain/flipt/auth.js';
import type { Database } from '../db/index.js';
import type { AuthenticationsTable } from '../db/schema.js';
import { microsToTimestamp, nowTimestamp } from '../db/codec.js';
import { formatTimestamp } from '../flipt/timestamps.js';

/** A client token as Flipt makes them: base64url (with padding) of 32 random bytes. */
export function generateClientToken(): string {
  return randomBytes(32).toString('base64url') + '=';
}

export function hashClientToken(clientToken: string): string {
  return createHash('sha256').update(clientToken).digest('base64url');
}

/** An RFC 3339 timestamp `ms` milliseconds from now, at the storage precision. */
export function timestampIn(ms: number): string {
  return microsToTimestamp(Math.floor((Date.now() + ms) * 1000));
}

/** Normalises an RFC 3339 timestamp from a request to the stored form (microseconds, UTC). */
export function storedTimestamp(rfc3339: string): string | undefined {
  const match = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$/i.exec(rfc3339);
  if (!match) return undefined;
  const millis = Date.parse(`${match[1]}${match[3].toUpperCase()}`);
  if (Number.isNaN(millis)) return undefined;
  const micros = Number((match[2] ?? '').padEnd(6, '0').slice(0, 6));
  return microsToTimestamp(millis * 1000 + micros);
}

export function isExpired(authentication: Authentication): boolean {
  return authentication.expiresAt !== undefined && Date.parse(authentication.expiresAt) <= Date.now();
}

function toAuthentication(row: AuthenticationsTable): Authentication {
  return {
    id: row.id,
    method: row.method as AuthMethod,
    ...(row.expires_at !== null && { expiresAt: formatTimestamp(row.expires_at) }),
    createdAt: formatTimestamp(row.created_at),
    updatedAt: formatTimestamp(row.updated_at),
    metadata: JSON.parse(row.metadata) as Record<string, string>,
  };
}

export interface NewAuthentication {
  method: AuthMethod;
  metadata: Record<string, string>;
  /** Stored form (see storedTimestamp); absent for tokens that never expire. */
  expiresAt?: string;
  /** A chosen client token (the configured bootstrap token); generated when absent. */
  clientToken?: string;
}

/** Authentications in the database, looked up by id or by the hash of their client token. */
export class AuthStore {
  constructor(private readonly database: Database) {}

  async create(input: NewAuthentication): Promise<{ clientToken: string; authentication: Authentication }> {
    const clientToken = input.clientToken ?? generateClientToken();
    const now = nowTimestamp();
    const row: AuthenticationsTable = {
      id: randomUUID(),
      method: input.method,
      hashed_client_token: hashClientToken(clientToken),
      metadata: JSON.stringify(input.metadata),
      expires_at: input.expiresAt ?? null,
      created_at: now,
      updated_at: now,
    };
    await this.database.db.insertInto('authentications').values(row).execute();
    return { clientToken, authentication: toAuthentication(row) };
  }

  async byClientToken(clientToken: string): Promise<Authentication | undefined> {
    const row = await this.database.db
      .selectFrom('authentications')
      .selectAll()
      .where('hashed_client_token', '=', hashClientToken(clientToken))
      .executeTakeFirst();
    return row && toAuthentication(row);
  }

  async byId(id: string): Promise<Authentication | undefined> {
    const row = await this.database.db
      .selectFrom('authentications')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toAuthentication(row);
  }

  /** A page in creation order, optionally of one method; `hasMore` when rows follow it. */
  async list(options: { method?: AuthMethod; limit: number; offset: number }) {
    let query = this.database.db.selectFrom('authentications').selectAll();
    if (options.method) query = query.where('method', '=', options.method);
    const rows = await query
      .orderBy('created_at')
      .orderBy('id')
      .limit(options.limit + 1)
      .offset(options.offset)
      .execute();
    return {
      authentications: rows.slice(0, options.limit).map(toAuthentication),
      hasMore: rows.length > options.limit,
    };
  }

  async delete(id: string): Promise<void> {
    await this.database.db.deleteFrom('authentications').where('id', '=', id).execute();
  }

  /** Deletes the method's authentications that expired before `before` (stored form); returns how many. */
  async purgeExpired(method: AuthMethod, before: string): Promise<number> {
    const result = await this.database.db
      .deleteFrom('authentications')
      .where('method', '=', method)
      .where('expires_at', 'is not', null)
      .where('expires_at', '<', before)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async expire(id: string, at: string): Promise<void> {
    await this.database.db
      .updateTable('authentications')
      .set({ expires_at: at, updated_at: nowTimestamp() })
      .where('id', '=', id)
      .execute();
  }
}
