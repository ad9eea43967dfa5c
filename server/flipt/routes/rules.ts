import type { FliptOperations } from '../operations.js';
import { message, readMessage, type FliptRoutes } from './http.js';

export function ruleRoutes(routes: FliptRoutes, ops: FliptOperations): void {
  const rules = '/flags/:flagKey/rules';
  routes.namespaced('GET', rules, async (request) => ops.listRules(readMessage(request)));
  routes.namespaced('GET', `${rules}/:id`, async (request) => ops.getRule(readMessage(request)));
  routes.namespaced('POST', rules, async (request) => ops.createRule(message(request)));
  routes.namespaced('PUT', `${rules}/order`, async (request) => ops.orderRules(message(request)));
  routes.namespaced('PUT', `${rules}/:id`, async (request) => ops.updateRule(message(request)));
  routes.namespaced('DELETE', `${rules}/:id`, async (request) => ops.deleteRule(readMessage(request)));

  const distributions = `${rules}/:ruleId/distributions`;
  routes.namespaced('POST', distributions, async (request) => ops.createDistribution(message(request)));
  routes.namespaced('PUT', `${distributions}/:id`, async (request) => ops.updateDistribution(message(request)));
  routes.namespaced('DELETE', `${distributions}/:id`, async (request) => ops.deleteDistribution(message(request)));
}
