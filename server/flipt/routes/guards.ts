import type { FeedbackGuards } from '../../guards/guards.js';
import type { FliptRoutes } from './http.js';

/** A flag's feedback guards, beside its other resources (namespaced only, as rollouts). */
export function guardRoutes(routes: FliptRoutes, guards: FeedbackGuards): void {
  const path = '/flags/:flagKey/guards';
  const only = { legacy: false };
  routes.namespaced('GET', path, async ({ namespaceKey, params }) => guards.list(namespaceKey, params.flagKey), only);
  routes.namespaced(
    'POST',
    path,
    async ({ namespaceKey, params, message }) => guards.create(namespaceKey, params.flagKey, message),
    only,
  );
  routes.namespaced(
    'GET',
    `${path}/:id`,
    async ({ namespaceKey, params }) => guards.get(namespaceKey, params.flagKey, params.id),
    only,
  );
  routes.namespaced(
    'PUT',
    `${path}/:id`,
    async ({ namespaceKey, params, message }) => guards.update(namespaceKey, params.flagKey, params.id, message),
    only,
  );
  routes.namespaced(
    'DELETE',
    `${path}/:id`,
    async ({ namespaceKey, params }) => guards.delete(namespaceKey, params.flagKey, params.id),
    only,
  );
}
