import type { FliptOperations } from '../operations.js';
import type { FliptRoutes } from './http.js';

export function ruleRoutes(routes: FliptRoutes, ops: FliptOperations): void {
  const rules = '/flags/:flagKey/rules';
  routes.namespaced('GET', rules, async ({ read }) => ops.listRules(read));
  routes.namespaced('GET', `${rules}/:id`, async ({ read }) => ops.getRule(read));
  routes.namespaced('POST', rules, async ({ message }) => ops.createRule(message));
  routes.namespaced('PUT', `${rules}/order`, async ({ message }) => ops.orderRules(message));
  routes.namespaced('PUT', `${rules}/:id`, async ({ message }) => ops.updateRule(message));
  routes.namespaced('DELETE', `${rules}/:id`, async ({ read }) => ops.deleteRule(read));

  const distributions = `${rules}/:ruleId/distributions`;
  routes.namespaced('POST', distributions, async ({ message }) => ops.createDistribution(message));
  routes.namespaced('PUT', `${distributions}/:id`, async ({ message }) => ops.updateDistribution(message));
  // As Flipt's gateway reads it: the query's namespace on the legacy route, unlike the other deletes.
  routes.namespaced('DELETE', `${distributions}/:id`, async ({ message }) => ops.deleteDistribution(message));
}
