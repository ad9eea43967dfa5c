import { DEFAULT_NAMESPACE } from '../../domain/flipt/types.js';

/**
 * Which namespace an evaluation request acts on. The handlers and the guard of namespace-scoped
 * tokens (server/auth/enforce.ts) both read it here: any difference between their two readings
 * would let a token evaluate in a namespace it does not hold. Imports only `domain/`, so that
 * `server/auth` needs nothing else from `server/evaluation`.
 */

/**
 * A field sent in camelCase or snake_case: camelCase wins when both are. `null` is as absent, for
 * every field (as Flipt's protobuf JSON reads it), so `{"namespaceKey": null, "namespace_key": "a"}`
 * names "a" for the guard and the handler alike.
 */
export function either(camel: unknown, snake: unknown): unknown {
  return camel === undefined || camel === null ? snake : camel;
}

/** A string field's value: absent is empty; undefined when what was sent is not a string (the handler's 400). */
export function wireText(value: unknown): string | undefined {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : undefined;
}

/** The namespace an evaluation body (or a batch item) names, '' when none; undefined when it is not a string. */
export function namedNamespace(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return '';
  const fields = body as { namespaceKey?: unknown; namespace_key?: unknown };
  return wireText(either(fields.namespaceKey, fields.namespace_key));
}

/** The namespace a request naming `named` evaluates in: an empty key is "default". */
export function evaluationNamespace(named: string): string {
  return named || DEFAULT_NAMESPACE;
}

/**
 * The namespace a legacy v1 evaluation, single or batch, acts on: the path's, else the body's, else
 * "default"; undefined when the body's is not a string.
 */
export function legacyEvaluationNamespace(pathNamespace: string | undefined, body: unknown): string | undefined {
  if (pathNamespace) return pathNamespace;
  const named = namedNamespace(body);
  return named === undefined ? undefined : evaluationNamespace(named);
}

/** The namespace an OFREP request acts on: `X-Flipt-Namespace`, else "default". */
export function ofrepNamespace(headers: Readonly<Record<string, string | string[] | undefined>>): string {
  const header = headers['x-flipt-namespace'];
  return (typeof header === 'string' && header.trim()) || DEFAULT_NAMESPACE;
}
