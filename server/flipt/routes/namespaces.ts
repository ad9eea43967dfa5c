import type { FastifyRequest } from 'fastify';
import {
  CreateNamespaceRequest,
  DeleteNamespaceRequest,
  ListRequest,
  UpdateNamespaceRequest,
} from '../../../domain/flipt/schemas.js';
import type { FliptStore } from '../store/index.js';
import { message, parse, type FliptRoutes } from './http.js';

type Params = { namespaceKey: string };
const keyOf = (request: FastifyRequest) => (request.params as Params).namespaceKey;

export function namespaceRoutes(routes: FliptRoutes, store: FliptStore): void {
  routes.route('GET', '/api/v1/namespaces', async (request) =>
    store.listNamespaces(parse(ListRequest, message(request))),
  );
  routes.route('GET', '/api/v1/namespaces/:namespaceKey', async (request) => store.getNamespace(keyOf(request)));
  routes.route('POST', '/api/v1/namespaces', async (request) =>
    store.createNamespace(parse(CreateNamespaceRequest, message(request))),
  );
  routes.route('PUT', '/api/v1/namespaces/:namespaceKey', async (request) =>
    store.updateNamespace(parse(UpdateNamespaceRequest, message(request, { key: keyOf(request) }))),
  );
  routes.route('DELETE', '/api/v1/namespaces/:namespaceKey', async (request) => {
    const { key, force } = parse(DeleteNamespaceRequest, message(request, { key: keyOf(request) }));
    await store.deleteNamespace(key, { force });
    return {};
  });
}
