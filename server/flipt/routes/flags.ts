import type { FliptOperations } from '../operations.js';
import type { FliptRoutes } from './http.js';

export function flagRoutes(routes: FliptRoutes, ops: FliptOperations): void {
  const flag = { key: 'flagKey' } as const;
  routes.namespaced('GET', '/flags', async ({ read }) => ops.listFlags(read));
  routes.namespaced('GET', '/flags/:flagKey', async ({ read }) => ops.getFlag(read), flag);
  routes.namespaced('POST', '/flags', async ({ message }) => ops.createFlag(message));
  routes.namespaced('PUT', '/flags/:flagKey', async ({ message }) => ops.updateFlag(message), flag);
  routes.namespaced('DELETE', '/flags/:flagKey', async ({ read }) => ops.deleteFlag(read), flag);

  routes.namespaced('POST', '/flags/:flagKey/variants', async ({ message }) => ops.createVariant(message));
  routes.namespaced('PUT', '/flags/:flagKey/variants/:id', async ({ message }) => ops.updateVariant(message));
  routes.namespaced('DELETE', '/flags/:flagKey/variants/:id', async ({ read }) => ops.deleteVariant(read));
}
