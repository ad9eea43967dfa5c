import type { FastifyInstance } from 'fastify';
import type { FliptStore } from '../store/index.js';
import { fliptOperations } from '../operations.js';
import { FliptRoutes, prettyPrinting } from './http.js';
import { namespaceRoutes } from './namespaces.js';
import { flagRoutes } from './flags.js';
import { segmentRoutes } from './segments.js';
import { ruleRoutes } from './rules.js';
import { rolloutRoutes } from './rollouts.js';
import { recordActors } from './actor.js';
import { historyRoutes } from './history.js';
import { guardRoutes } from './guards.js';
import type { FeedbackGuards } from '../../guards/guards.js';

/** The Flipt v1 management API, in its own plugin scope. */
export async function fliptManagementRoutes(
  app: FastifyInstance,
  store: FliptStore,
  guards: FeedbackGuards,
): Promise<void> {
  prettyPrinting(app);
  recordActors(app);
  const routes = new FliptRoutes(app);
  const ops = fliptOperations(store);
  namespaceRoutes(routes, ops);
  flagRoutes(routes, ops);
  segmentRoutes(routes, ops);
  ruleRoutes(routes, ops);
  rolloutRoutes(routes, ops);
  historyRoutes(routes, store);
  guardRoutes(routes, guards);
  routes.finish();
}
