import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from './cookies.js';

/**
 * CSRF protection in the manner of gorilla/csrf, which Flipt v1.47 uses: a secret token lives in a
 * signed cookie; `/meta/*` responses hand out a masked copy in `X-CSRF-Token`; unsafe requests must
 * echo a masked copy. Ensign checks only cookie-authenticated requests that carry an `Origin`
 * header: a header credential cannot be forged cross-site, so only the cookie needs the guard. An
 * origin listed in `trusted_origins` needs no token.
 */
export const CSRF_COOKIE = '_gorilla_csrf';
export const CSRF_HEADER = 'x-csrf-token';
const TOKEN_BYTES = 32;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

export class Csrf {
  private readonly trusted: Set<string>;

  /**
   * `secure`: the cookie goes over HTTPS only, as the session cookie does (`session.secure`).
   * `trustedOrigins` (`session.csrf.trusted_origins`): pages at these origins may write with the
   * session cookie and no token, as Flipt v1.59.3 and later let them (Go's CrossOriginProtection
   * with AddTrustedOrigin); they are compared with `Origin` exactly as written.
   */
  constructor(
    private readonly key: string,
    private readonly secure = false,
    trustedOrigins: string[] = [],
  ) {
    this.trusted = new Set(trustedOrigins);
  }

  private sign(token: Buffer): string {
    return createHmac('sha256', this.key).update(token).digest('base64url');
  }

  /** The secret token the request's cookie holds, when the cookie is present and its signature is ours. */
  private cookieToken(request: FastifyRequest): Buffer | undefined {
    const cookie = request.cookies[CSRF_COOKIE];
    const [tokenPart, signature] = cookie?.split('.') ?? [];
    if (!tokenPart || !signature) return undefined;
    const token = Buffer.from(tokenPart, 'base64url');
    if (token.length !== TOKEN_BYTES || !safeEqual(Buffer.from(this.sign(token)), Buffer.from(signature)))
      return undefined;
    return token;
  }

  /** onSend for `/meta/*`: a fresh masked token in the header, and the cookie when it is missing. */
  issue(request: FastifyRequest, reply: FastifyReply): void {
    let token = this.cookieToken(request);
    if (!token) {
      token = randomBytes(TOKEN_BYTES);
      reply.setCookie(CSRF_COOKIE, `${token.toString('base64url')}.${this.sign(token)}`, {
        path: '/',
        httpOnly: true,
        secure: this.secure,
        sameSite: 'lax',
        maxAge: 12 * 3600,
      });
    }
    reply.header('X-CSRF-Token', mask(token));
  }

  /** True when the request needs no token or carries a valid one. */
  allows(request: FastifyRequest): boolean {
    const origin = request.headers.origin;
    if (SAFE_METHODS.has(request.method) || origin === undefined || this.trusted.has(origin)) return true;
    const cookieAuthenticated =
      request.headers.authorization === undefined && request.cookies[SESSION_COOKIE] !== undefined;
    if (!cookieAuthenticated) return true;
    const token = this.cookieToken(request);
    const header = request.headers[CSRF_HEADER];
    if (!token || typeof header !== 'string') return false;
    const sent = unmask(header);
    return sent !== undefined && safeEqual(sent, token);
  }
}

/** A one-time pad and the token XOR the pad, so the header differs on every response (BREACH). */
function mask(token: Buffer): string {
  const pad = randomBytes(TOKEN_BYTES);
  const masked = Buffer.alloc(TOKEN_BYTES);
  for (let i = 0; i < TOKEN_BYTES; i++) masked[i] = token[i] ^ pad[i];
  return Buffer.concat([pad, masked]).toString('base64');
}

function unmask(value: string): Buffer | undefined {
  const bytes = Buffer.from(value, 'base64');
  if (bytes.length !== TOKEN_BYTES * 2) return undefined;
  const token = Buffer.alloc(TOKEN_BYTES);
  for (let i = 0; i < TOKEN_BYTES; i++) token[i] = bytes[i] ^ bytes[TOKEN_BYTES + i];
  return token;
}

function safeEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
