import type { FastifyRequest } from 'fastify';
import {
  CreateFlagRequest,
  CreateVariantRequest,
  ListRequest,
  UpdateFlagRequest,
  UpdateVariantRequest,
} from '../../../domain/flipt/schemas.js';
import { DEFAULT_NAMESPACE } from '../../../domain/flipt/types.js';
import type { FliptStore } from '../store/index.js';
import { message, parse, type FliptRoutes } from './http.js';

type Params = { namespaceKey?: string; flagKey: string; id: string };
const params = (request: FastifyRequest) => request.params as Params;
const namespaceOf = (request: FastifyRequest) => params(request).namespaceKey || DEFAULT_NAMESPACE;

export function flagRoutes(routes: FliptRoutes, store: FliptStore): void {
  routes.namespaced('GET', '/flags', async (request) => store.listFlags(namespaceOf(request), parse(ListRequest, message(request))));
  routes.namespaced('GET', '/flags/:flagKey', async (request) => store.getFlag(namespaceOf(request), params(request).flagKey));
  routes.namespaced('POST', '/flags', async (request) => store.createFlag(parse(CreateFlagRequest, message(request))));
  routes.namespaced('PUT', '/flags/:flagKey', async (request) =>
    store.updateFlag(parse(UpdateFlagRequest, message(request, { key: params(request).flagKey }))),
  );
  routes.namespaced('DELETE', '/flags/:flagKey', async (request) => {
    await store.deleteFlag(namespaceOf(request), params(request).flagKey);
    return {};
  });

  routes.namespaced('POST', '/flags/:flagKey/variants', async (request) =>
    store.createVariant(parse(CreateVariantRequest, message(request))),
  );
  routes.namespaced('PUT', '/flags/:flagKey/variants/:id', async (request) =>
    store.updateVariant(parse(UpdateVariantRequest, message(request))),
  );
  routes.namespaced('DELETE', '/flags/:flagKey/variants/:id', async (request) => {
    await store.deleteVariant(namespaceOf(request), params(request).flagKey, params(request).id);
    return {};
  });
}
