import type { FastifyRequest } from 'fastify';
import type { FliptOperations } from '../operations.js';
import { message, type FliptRoutes } from './http.js';

type Params = { namespaceKey: string };
const keyOf = (request: FastifyRequest) => (request.params as Params).namespaceKey;

export function namespaceRoutes(routes: FliptRoutes, ops: FliptOperations): void {
  routes.route('GET', '/api/v1/namespaces', async (request) => ops.listNamespaces(message(request)));
  routes.route('GET', '/api/v1/namespaces/:namespaceKey', async (request) => ops.getNamespace({ key: keyOf(request) }));
  routes.route('POST', '/api/v1/namespaces', async (request) => ops.createNamespace(message(request)));
  routes.route('PUT', '/api/v1/namespaces/:namespaceKey', async (request) =>
    ops.updateNamespace(message(request, { key: keyOf(request) })),
  );
  routes.route('DELETE', '/api/v1/namespaces/:namespaceKey', async (request) =>
    ops.deleteNamespace(message(request, { key: keyOf(request) })),
  );
}
