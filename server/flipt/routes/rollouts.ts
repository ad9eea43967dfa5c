import type { FastifyRequest } from 'fastify';
import {
  CreateRolloutRequest,
  ListRequest,
  OrderRolloutsRequest,
  UpdateRolloutRequest,
} from '../../../domain/flipt/schemas.js';
import type { FliptStore } from '../store/index.js';
import { message, parse, type FliptRoutes } from './http.js';

type Params = { namespaceKey: string; flagKey: string; id: string };
const params = (request: FastifyRequest) => request.params as Params;

/** Rollouts exist only under a namespace: Flipt has no legacy alias for them. */
export function rolloutRoutes(routes: FliptRoutes, store: FliptStore): void {
  const rollouts = '/flags/:flagKey/rollouts';
  const only = { legacy: false };
  routes.namespaced(
    'GET',
    rollouts,
    async (request) => store.listRollouts(params(request).namespaceKey, params(request).flagKey, parse(ListRequest, message(request))),
    only,
  );
  routes.namespaced(
    'GET',
    `${rollouts}/:id`,
    async (request) => store.getRollout(params(request).namespaceKey, params(request).flagKey, params(request).id),
    only,
  );
  routes.namespaced('POST', rollouts, async (request) => store.createRollout(parse(CreateRolloutRequest, message(request))), only);
  routes.namespaced(
    'PUT',
    `${rollouts}/order`,
    async (request) => {
      await store.orderRollouts(parse(OrderRolloutsRequest, message(request)));
      return {};
    },
    only,
  );
  routes.namespaced('PUT', `${rollouts}/:id`, async (request) => store.updateRollout(parse(UpdateRolloutRequest, message(request))), only);
  routes.namespaced(
    'DELETE',
    `${rollouts}/:id`,
    async (request) => {
      await store.deleteRollout(params(request).namespaceKey, params(request).flagKey, params(request).id);
      return {};
    },
    only,
  );
}
