import type { FliptOperations } from '../operations.js';
import type { FliptRoutes } from './http.js';

export function segmentRoutes(routes: FliptRoutes, ops: FliptOperations): void {
  const segment = { key: 'segmentKey' } as const;
  routes.namespaced('GET', '/segments', async ({ read }) => ops.listSegments(read));
  routes.namespaced('GET', '/segments/:segmentKey', async ({ read }) => ops.getSegment(read), segment);
  routes.namespaced('POST', '/segments', async ({ message }) => ops.createSegment(message));
  routes.namespaced('PUT', '/segments/:segmentKey', async ({ message }) => ops.updateSegment(message), segment);
  routes.namespaced('DELETE', '/segments/:segmentKey', async ({ read }) => ops.deleteSegment(read), segment);

  const constraints = '/segments/:segmentKey/constraints';
  routes.namespaced('POST', constraints, async ({ message }) => ops.createConstraint(message));
  routes.namespaced('PUT', `${constraints}/:id`, async ({ message }) => ops.updateConstraint(message));
  routes.namespaced('DELETE', `${constraints}/:id`, async ({ read }) => ops.deleteConstraint(read));
}
