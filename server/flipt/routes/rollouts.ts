import type { FliptOperations } from '../operations.js';
import type { FliptRoutes } from './http.js';

/** Rollouts exist only under a namespace: Flipt has no legacy alias for them. */
export function rolloutRoutes(routes: FliptRoutes, ops: FliptOperations): void {
  const rollouts = '/flags/:flagKey/rollouts';
  const only = { legacy: false };
  routes.namespaced('GET', rollouts, async ({ read }) => ops.listRollouts(read), only);
  routes.namespaced('GET', `${rollouts}/:id`, async ({ read }) => ops.getRollout(read), only);
  routes.namespaced('POST', rollouts, async ({ message }) => ops.createRollout(message), only);
  routes.namespaced('PUT', `${rollouts}/order`, async ({ message }) => ops.orderRollouts(message), only);
  routes.namespaced('PUT', `${rollouts}/:id`, async ({ message }) => ops.updateRollout(message), only);
  routes.namespaced('DELETE', `${rollouts}/:id`, async ({ read }) => ops.deleteRollout(read), only);
}
