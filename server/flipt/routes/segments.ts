import type { FliptOperations } from '../operations.js';
import { message, pathParams as params, readMessage, type FliptRoutes } from './http.js';

export function segmentRoutes(routes: FliptRoutes, ops: FliptOperations): void {
  routes.namespaced('GET', '/segments', async (request) => ops.listSegments(readMessage(request)));
  routes.namespaced('GET', '/segments/:segmentKey', async (request) =>
    ops.getSegment(readMessage(request, { key: params(request).segmentKey })),
  );
  routes.namespaced('POST', '/segments', async (request) => ops.createSegment(message(request)));
  routes.namespaced('PUT', '/segments/:segmentKey', async (request) =>
    ops.updateSegment(message(request, { key: params(request).segmentKey })),
  );
  routes.namespaced('DELETE', '/segments/:segmentKey', async (request) =>
    ops.deleteSegment(readMessage(request, { key: params(request).segmentKey })),
  );

  routes.namespaced('POST', '/segments/:segmentKey/constraints', async (request) =>
    ops.createConstraint(message(request)),
  );
  routes.namespaced('PUT', '/segments/:segmentKey/constraints/:id', async (request) =>
    ops.updateConstraint(message(request)),
  );
  routes.namespaced('DELETE', '/segments/:segmentKey/constraints/:id', async (request) =>
    ops.deleteConstraint(readMessage(request)),
  );
}
