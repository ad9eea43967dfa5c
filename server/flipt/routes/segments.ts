import {
  CreateConstraintRequest,
  CreateSegmentRequest,
  ListRequest,
  UpdateConstraintRequest,
  UpdateSegmentRequest,
} from '../../../domain/flipt/schemas.js';
import type { FliptStore } from '../store/index.js';
import { message, namespaceOf, parse, pathParams as params, type FliptRoutes } from './http.js';

export function segmentRoutes(routes: FliptRoutes, store: FliptStore): void {
  routes.namespaced('GET', '/segments', async (request) =>
    store.listSegments(namespaceOf(request), parse(ListRequest, message(request))),
  );
  routes.namespaced('GET', '/segments/:segmentKey', async (request) =>
    store.getSegment(namespaceOf(request), params(request).segmentKey),
  );
  routes.namespaced('POST', '/segments', async (request) =>
    store.createSegment(parse(CreateSegmentRequest, message(request))),
  );
  routes.namespaced('PUT', '/segments/:segmentKey', async (request) =>
    store.updateSegment(parse(UpdateSegmentRequest, message(request, { key: params(request).segmentKey }))),
  );
  routes.namespaced('DELETE', '/segments/:segmentKey', async (request) => {
    await store.deleteSegment(namespaceOf(request), params(request).segmentKey);
    return {};
  });

  routes.namespaced('POST', '/segments/:segmentKey/constraints', async (request) =>
    store.createConstraint(parse(CreateConstraintRequest, message(request))),
  );
  routes.namespaced('PUT', '/segments/:segmentKey/constraints/:id', async (request) =>
    store.updateConstraint(parse(UpdateConstraintRequest, message(request))),
  );
  routes.namespaced('DELETE', '/segments/:segmentKey/constraints/:id', async (request) => {
    await store.deleteConstraint(namespaceOf(request), params(request).segmentKey, params(request).id);
    return {};
  });
}
