import { createPublicKey, verify, type KeyObject, type JsonWebKey } from 'node:crypto';

/**
 * JSON Web Token verification on node:crypto: RS256/RS384/RS512, ES256/ES384/ES512 and EdDSA,
 * with keys from a JWKS address (refetched when an unknown key id shows up) or a PEM public key.
 */

export type Claims = Record<string, unknown>;

export class JwtError extends Error {
  override name = 'JwtError';
}

const ALGORITHMS: Record<string, { hash: string | null; ecdsa?: boolean }> = {
  RS256: { hash: 'sha256' },
  RS384: { hash: 'sha384' },
  RS512: { hash: 'sha512' },
  ES256: { hash: 'sha256', ecdsa: true },
  ES384: { hash: 'sha384', ecdsa: true },
  ES512: { hash: 'sha512', ecdsa: true },
  EdDSA: { hash: null },
};

export interface KeySource {
  /** The key for a token header, or undefined when none fits. */
  keyFor(header: { kid?: string; alg: string }): Promise<KeyObject | undefined>;
}

export function pemKeySource(pem: string): KeySource {
  const key = createPublicKey(pem);
  return { keyFor: async () => key };
}

/** Keys from a JWKS document; fetched on first use and again when a token names an unknown key id. */
export function jwksKeySource(url: string): KeySource {
  let keys: { kid?: string; alg?: string; key: KeyObject }[] | undefined;
  const load = async () => {
    let response: Response;
    try {
      response = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(10_000) });
    } catch (error) {
      throw new JwtError(`cannot fetch JWKS from ${url}: ${causeOf(error)}`);
    }
    if (!response.ok) throw new JwtError(`cannot fetch JWKS from ${url}: HTTP ${response.status}`);
    const body = (await response.json()) as { keys?: (JsonWebKey & { kid?: string; alg?: string; use?: string })[] };
    keys = (body.keys ?? [])
      .filter((jwk) => jwk.use === undefined || jwk.use === 'sig')
      .flatMap((jwk) => {
        try {
          return [{ kid: jwk.kid, alg: jwk.alg, key: createPublicKey({ key: jwk, format: 'jwk' }) }];
        } catch {
          return [];
        }
      });
  };
  const find = (header: { kid?: string; alg: string }) =>
    keys?.find(
      (k) => (header.kid === undefined || k.kid === header.kid) && (k.alg === undefined || k.alg === header.alg),
    );
  return {
    async keyFor(header) {
      if (!keys) await load();
      let found = find(header);
      if (!found && header.kid !== undefined) {
        await load();
        found = find(header);
      }
      return found?.key;
    },
  };
}

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
  const parts = token.split('.');
  if (parts.length !== 3) throw new JwtError('malformed token');
  const [headerPart, payloadPart, signaturePart] = parts;
  const header = decodeJson(headerPart) as { alg?: unknown; kid?: unknown };
  const algorithm = typeof header.alg === 'string' ? ALGORITHMS[header.alg] : undefined;
  if (!algorithm) throw new JwtError(`unsupported algorithm ${String(header.alg)}`);
  const key = await keys.keyFor({
    alg: header.alg as string,
    kid: typeof header.kid === 'string' ? header.kid : undefined,
  });
  if (!key) throw new JwtError('no key matches the token');
  let valid = false;
  try {
    valid = verify(
      algorithm.hash,
      Buffer.from(`${headerPart}.${payloadPart}`),
      algorithm.ecdsa ? { key, dsaEncoding: 'ieee-p1363' } : key,
      Buffer.from(signaturePart, 'base64url'),
    );
  } catch {
    // a key of another type than the algorithm names
  }
  if (!valid) throw new JwtError('invalid signature');

  const claims = decodeJson(payloadPart) as Claims;
  checkTimes(claims);
  if (checks.issuer !== undefined && claims.iss !== checks.issuer) throw new JwtError('unexpected issuer');
  if (checks.subject !== undefined && claims.sub !== checks.subject) throw new JwtError('unexpected subject');
  if (checks.audiences?.length) {
    const audience = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    if (!audience.some((aud) => checks.audiences!.includes(aud as string))) throw new JwtError('unexpected audience');
  }
  return claims;
}

/**
 * A token must carry at least one of `iat`, `nbf` and `exp`. Without `exp` it lives 150 s from the
 * later of `iat` and `nbf`; without `nbf` it is valid from `iat`. Each bound is checked with 60 s of skew.
 */
function checkTimes(claims: Claims): void {
  const time = (name: string) => (typeof claims[name] === 'number' ? (claims[name] as number) : undefined);
  const issuedAt = time('iat');
  const notBefore = time('nbf');
  let expiry = time('exp');
  if (issuedAt === undefined && notBefore === undefined && expiry === undefined) {
    throw new JwtError('token has none of iat, nbf and exp');
  }
  expiry ??= Math.max(issuedAt ?? 0, notBefore ?? 0) + LIFETIME_WITHOUT_EXP_S;
  const now = Date.now() / 1000;
  if (now - CLOCK_SKEW_S > expiry) throw new JwtError('token has expired');
  if (notBefore !== undefined && now + CLOCK_SKEW_S < notBefore) throw new JwtError('token is not valid yet');
  if (issuedAt !== undefined && now + CLOCK_SKEW_S < issuedAt) throw new JwtError('token was issued in the future');
}

function decodeJson(part: string): unknown {
  try {
    const value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value)) return value;
  } catch {
    // reported below
  }
  throw new JwtError('malformed token');
}

/** The most telling reason a fetch failed: the system error code, else the cause's message. */
export function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}
