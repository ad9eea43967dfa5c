import type { FliptOperations } from '../operations.js';
import { message, readMessage, type FliptRoutes } from './http.js';

/** Rollouts exist only under a namespace: Flipt has no legacy alias for them. */
export function rolloutRoutes(routes: FliptRoutes, ops: FliptOperations): void {
  const rollouts = '/flags/:flagKey/rollouts';
  const only = { legacy: false };
  routes.namespaced('GET', rollouts, async (request) => ops.listRollouts(readMessage(request)), only);
  routes.namespaced('GET', `${rollouts}/:id`, async (request) => ops.getRollout(readMessage(request)), only);
  routes.namespaced('POST', rollouts, async (request) => ops.createRollout(message(request)), only);
  routes.namespaced('PUT', `${rollouts}/order`, async (request) => ops.orderRollouts(message(request)), only);
  routes.namespaced('PUT', `${rollouts}/:id`, async (request) => ops.updateRollout(message(request)), only);
  routes.namespaced('DELETE', `${rollouts}/:id`, async (request) => ops.deleteRollout(readMessage(request)), only);
}
