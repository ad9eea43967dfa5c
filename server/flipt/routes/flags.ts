import type { FliptOperations } from '../operations.js';
import { message, pathParams as params, readMessage, type FliptRoutes } from './http.js';

export function flagRoutes(routes: FliptRoutes, ops: FliptOperations): void {
  routes.namespaced('GET', '/flags', async (request) => ops.listFlags(readMessage(request)));
  routes.namespaced('GET', '/flags/:flagKey', async (request) =>
    ops.getFlag(readMessage(request, { key: params(request).flagKey })),
  );
  routes.namespaced('POST', '/flags', async (request) => ops.createFlag(message(request)));
  routes.namespaced('PUT', '/flags/:flagKey', async (request) =>
    ops.updateFlag(message(request, { key: params(request).flagKey })),
  );
  routes.namespaced('DELETE', '/flags/:flagKey', async (request) =>
    ops.deleteFlag(readMessage(request, { key: params(request).flagKey })),
  );

  routes.namespaced('POST', '/flags/:flagKey/variants', async (request) => ops.createVariant(message(request)));
  routes.namespaced('PUT', '/flags/:flagKey/variants/:id', async (request) => ops.updateVariant(message(request)));
  routes.namespaced('DELETE', '/flags/:flagKey/variants/:id', async (request) =>
    ops.deleteVariant(readMessage(request)),
  );
}
