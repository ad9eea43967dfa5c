import {
  CreateRolloutRequest,
  ListRequest,
  OrderRolloutsRequest,
  UpdateRolloutRequest,
} from '../../../domain/flipt/schemas.js';
import type { FliptStore } from '../store/index.js';
import { message, namespaceOf, parse, pathParams as params, type FliptRoutes } from './http.js';

/** Rollouts exist only under a namespace: Flipt has no legacy alias for them. */
export function rolloutRoutes(routes: FliptRoutes, store: FliptStore): void {
  const rollouts = '/flags/:flagKey/rollouts';
  const only = { legacy: false };
  routes.namespaced(
    'GET',
    rollouts,
    async (request) =>
      store.listRollouts(namespaceOf(request), params(request).flagKey, parse(ListRequest, message(request))),
    only,
  );
  routes.namespaced(
    'GET',
    `${rollouts}/:id`,
    async (request) => store.getRollout(namespaceOf(request), params(request).flagKey, params(request).id),
    only,
  );
  routes.namespaced(
    'POST',
    rollouts,
    async (request) => store.createRollout(parse(CreateRolloutRequest, message(request))),
    only,
  );
  routes.namespaced(
    'PUT',
    `${rollouts}/order`,
    async (request) => {
      await store.orderRollouts(parse(OrderRolloutsRequest, message(request)));
      return {};
    },
    only,
  );
  routes.namespaced(
    'PUT',
    `${rollouts}/:id`,
    async (request) => store.updateRollout(parse(UpdateRolloutRequest, message(request))),
    only,
  );
  routes.namespaced(
    'DELETE',
    `${rollouts}/:id`,
    async (request) => {
      await store.deleteRollout(namespaceOf(request), params(request).flagKey, params(request).id);
      return {};
    },
    only,
  );
}
