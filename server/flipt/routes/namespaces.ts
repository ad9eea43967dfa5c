import type { FliptOperations } from '../operations.js';
import type { FliptRoutes } from './http.js';

export function namespaceRoutes(routes: FliptRoutes, ops: FliptOperations): void {
  const namespace = { key: 'namespaceKey' } as const;
  const one = '/api/v1/namespaces/:namespaceKey';
  routes.route('GET', '/api/v1/namespaces', async ({ message }) => ops.listNamespaces(message));
  routes.route('GET', one, async ({ params }) => ops.getNamespace({ key: params.namespaceKey }));
  routes.route('POST', '/api/v1/namespaces', async ({ message }) => ops.createNamespace(message));
  routes.route('PUT', one, async ({ message }) => ops.updateNamespace(message), namespace);
  routes.route('DELETE', one, async ({ message }) => ops.deleteNamespace(message), namespace);
}
