import type { FastifyRequest } from 'fastify';

/**
 * Cross-site request forgery protection as Flipt v1.59.3 and later have it (Go's
 * `http.CrossOriginProtection`): no token; a write is refused when the browser says it comes from
 * another origin. GET, HEAD and OPTIONS always pass. `Sec-Fetch-Site` (sent by every browser since
 * 2023) decides when present: `same-origin` and `none` pass, anything else is refused. Without it, an
 * `Origin` whose host differs from `Host` is refused. A request with neither (an SDK, curl) passes. An
 * origin in `trusted_origins` passes whatever the headers say.
 */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const SAME_ORIGIN_SITES = new Set(['same-origin', 'none']);

/** Go's messages, which its default handler answers with 403. */
export const CROSS_SITE_REFUSAL = 'cross-origin request detected from Sec-Fetch-Site header';
export const CROSS_ORIGIN_REFUSAL =
  'cross-origin request detected, and/or browser is out of date: Sec-Fetch-Site is missing, and Origin does not match Host';

export class CrossOriginProtection {
  private readonly trusted: Set<string>;

  /** `trustedOrigins` (`session.csrf.trusted_origins`) are compared with `Origin` exactly as written. */
  constructor(trustedOrigins: string[] = []) {
    this.trusted = new Set(trustedOrigins);
  }

  /** Why the request is refused, or undefined when it passes. */
  refusal(request: FastifyRequest): string | undefined {
    if (SAFE_METHODS.has(request.method)) return undefined;
    const site = header(request, 'sec-fetch-site');
    const origin = header(request, 'origin');
    if (site) {
      if (SAME_ORIGIN_SITES.has(site) || this.trusted.has(origin)) return undefined;
      return CROSS_SITE_REFUSAL;
    }
    if (!origin || hostOf(origin) === header(request, 'host') || this.trusted.has(origin)) return undefined;
    return CROSS_ORIGIN_REFUSAL;
  }
}

function header(request: FastifyRequest, name: string): string {
  const value = request.headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

/**
 * The host and port of an origin as written (`https://a.example:8443` → `a.example:8443`), as Go's URL
 * parser reads it: no case folding and no default port dropped, unlike WHATWG's URL. `null` and other
 * values without `scheme://` have none.
 */
function hostOf(origin: string): string | undefined {
  return /^[A-Za-z][A-Za-z0-9+.-]*:\/\/(?:[^@/?#]*@)?([^/?#]*)/.exec(origin)?.[1];
}
