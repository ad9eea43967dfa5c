import { createPublicKey, type KeyObject } from 'node:crypto';
import { createRemoteJWKSet, customFetch, errors, jwtVerify, type JWTVerifyGetKey } from 'jose';

/**
 * JSON Web Token verification on `jose`: the algorithms Flipt accepts (RS, PS, ES and EdDSA), each
 * tied by jose to the type of its key, with keys from a JWKS address (cached, refreshed when stale,
 * one fetch at a time and at most one per cooldown however many unknown key ids arrive) or a PEM
 * public key. Flipt's own rules on the times are checked after the signature.
 */

export type Claims = Record<string, unknown>;

export class JwtError extends Error {
  override name = 'JwtError';
}

export const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

/** Where the verification keys come from: one public key, or a JWKS address. */
export type KeySource = KeyObject | JWTVerifyGetKey;

export function pemKeySource(pem: string): KeySource {
  return createPublicKey(pem);
}

/** A JWKS is fetched again after 10 minutes, or for an unknown key id once 30 s have passed since the last fetch. */
export const JWKS_MAX_AGE_MS = 10 * 60_000;
export const JWKS_COOLDOWN_MS = 30_000;

/** Keys from a JWKS address; `warn` hears, once per fetch, why a fetch gave no usable keys. */
export function jwksKeySource(url: string, warn: (message: string) => void = () => {}): KeySource {
  return createRemoteJWKSet(new URL(url), {
    cacheMaxAge: JWKS_MAX_AGE_MS,
    cooldownDuration: JWKS_COOLDOWN_MS,
    timeoutDuration: 10_000,
    [customFetch]: async (resource, options) => {
      let response: Response;
      try {
        response = await fetch(resource, options);
      } catch (error) {
        warn(`cannot fetch the JWKS from ${url}: ${causeOf(error)}`);
        throw error;
      }
      if (!response.ok) warn(`the JWKS address ${url} answered HTTP ${response.status}`);
      else if (
        !(await response
          .clone()
          .json()
          .then(isJwks, () => false))
      ) {
        warn(`the JWKS address ${url} answered something other than a JSON key set`);
      }
      return response;
    },
  });
}

const isJwks = (body: unknown) => Array.isArray((body as { keys?: unknown } | null)?.keys);

export interface ClaimChecks {
  issuer?: string;
  subject?: string;
  /** When non-empty, the token's `aud` must name at least one. */
  audiences?: string[];
}

/** Clock skew allowed on `exp`, `nbf` and `iat`, and the lifetime of a token that has no `exp`: Flipt's JWT validator's. */
const CLOCK_SKEW_S = 60;
const LIFETIME_WITHOUT_EXP_S = 150;

/** Verifies signature, times, issuer, subject and audience; returns the claims or throws a JwtError. */
export async function verifyJwt(token: string, keys: KeySource, checks: ClaimChecks = {}): Promise<Claims> {
  let claims: Claims;
  try {
    const options = {
      algorithms: ALGORITHMS,
      issuer: checks.issuer,
      subject: checks.subject,
      audience: checks.audiences?.length ? checks.audiences : undefined,
      clockTolerance: CLOCK_SKEW_S,
    };
    const verified =
      typeof keys === 'function' ? await jwtVerify(token, keys, options) : await jwtVerify(token, keys, options);
    claims = verified.payload as Claims;
  } catch (error) {
    throw new JwtError(reasonOf(error));
  }
  checkTimes(claims);
  return claims;
}

/** One line for what jose refused. */
function reasonOf(error: unknown): string {
  if (error instanceof errors.JWTClaimValidationFailed) return `unexpected ${error.claim} (${error.reason})`;
  if (error instanceof errors.JWTExpired) return 'token has expired';
  if (error instanceof errors.JWKSNoMatchingKey) return 'no key matches the token';
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'invalid signature';
  if (error instanceof errors.JOSEAlgNotAllowed) return 'unsupported algorithm';
  if (error instanceof errors.JWKSInvalid || error instanceof errors.JWKSTimeout) {
    return `cannot use the JWKS: ${error.message}`;
  }
  if (error instanceof errors.JOSEError) return error.message;
  return `cannot fetch the JWKS: ${causeOf(error)}`;
}

/**
 * A token must carry at least one of `iat`, `nbf` and `exp`. Without `exp` it lives 150 s from the
 * later of `iat` and `nbf`; `iat` may not lie in the future. Each bound is checked with 60 s of skew
 * (jose has checked `exp` and `nbf` when present).
 */
function checkTimes(claims: Claims): void {
  const time = (name: string) => (typeof claims[name] === 'number' ? (claims[name] as number) : undefined);
  const issuedAt = time('iat');
  const notBefore = time('nbf');
  const expiry = time('exp');
  if (issuedAt === undefined && notBefore === undefined && expiry === undefined) {
    throw new JwtError('token has none of iat, nbf and exp');
  }
  const now = Date.now() / 1000;
  if (expiry === undefined && now - CLOCK_SKEW_S > Math.max(issuedAt ?? 0, notBefore ?? 0) + LIFETIME_WITHOUT_EXP_S) {
    throw new JwtError('token has expired');
  }
  if (issuedAt !== undefined && now + CLOCK_SKEW_S < issuedAt) throw new JwtError('token was issued in the future');
}

/** The most telling reason a fetch failed: the system error code, else the cause's message. */
export function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}
