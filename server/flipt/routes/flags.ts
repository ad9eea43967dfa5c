import {
  CreateFlagRequest,
  CreateVariantRequest,
  ListRequest,
  UpdateFlagRequest,
  UpdateVariantRequest,
} from '../../../domain/flipt/schemas.js';
import type { FliptStore } from '../store/index.js';
import { message, namespaceOf, parse, pathParams as params, type FliptRoutes } from './http.js';

export function flagRoutes(routes: FliptRoutes, store: FliptStore): void {
  routes.namespaced('GET', '/flags', async (request) =>
    store.listFlags(namespaceOf(request), parse(ListRequest, message(request))),
  );
  routes.namespaced('GET', '/flags/:flagKey', async (request) =>
    store.getFlag(namespaceOf(request), params(request).flagKey),
  );
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
