import type { FastifyInstance } from 'fastify';
import type { NamespaceList } from '../../../domain/flipt/types.js';
import type { AppContext } from '../../context.js';
import { listNamespaces } from '../store/namespaces.js';

export async function namespaceRoutes(app: FastifyInstance, { database }: AppContext): Promise<void> {
  app.get('/api/v1/namespaces', async (): Promise<NamespaceList> => {
    const namespaces = await listNamespaces(database);
    return { namespaces, nextPageToken: '', totalCount: namespaces.length };
  });
}
