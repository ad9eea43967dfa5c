import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AuthMetadata, type Authentication } from '../../../domain/flipt/auth.js';
import type { ActorMetadata } from '../../../domain/flipt/history.js';
import type { Actor } from '../store/history.js';
import { runAs } from '../store/actor.js';

/**
 * Flipt's audit actor of a request: the authentication's method ("none" without one), the client's
 * address and, when the authentication has them, an email, a name and a picture.
 */
export function actorOf(request: FastifyRequest): Actor {
  return actorFor(request.authentication, request.ip);
}

/** The actor of a caller with this authentication (if any) at this address, whichever API it called. */
export function actorFor(authentication: Authentication | undefined, ip: string): Actor {
  const metadata: ActorMetadata = {
    authentication: authentication ? authentication.method.replace(/^METHOD_/, '').toLowerCase() : 'none',
    ip,
  };
  const fields = authentication?.metadata ?? {};
  const email = fields[AuthMetadata.email] ?? fields[AuthMetadata.oidcEmail];
  if (email) metadata.email = email;
  if (fields[AuthMetadata.name]) metadata.name = fields[AuthMetadata.name];
  if (fields[AuthMetadata.picture]) metadata.picture = fields[AuthMetadata.picture];
  const tokenName = fields[AuthMetadata.tokenName];
  const name = email ?? metadata.name ?? (tokenName ? `token ${tokenName}` : undefined);
  return {
    name: name ?? (authentication ? `${metadata.authentication} ${authentication.id.slice(0, 8)}` : 'anonymous'),
    metadata,
  };
}

/** The writes of the scope's handlers are recorded as made by the request's actor. */
export function recordActors(app: FastifyInstance): void {
  app.addHook('preHandler', (request, _reply, done) => runAs(actorOf(request), done));
}
