import {
  CreateDistributionRequest,
  CreateRuleRequest,
  DeleteDistributionRequest,
  ListRequest,
  OrderRulesRequest,
  UpdateDistributionRequest,
  UpdateRuleRequest,
} from '../../../domain/flipt/schemas.js';
import type { FliptStore } from '../store/index.js';
import { message, namespaceOf, parse, pathParams as params, type FliptRoutes } from './http.js';

export function ruleRoutes(routes: FliptRoutes, store: FliptStore): void {
  const rules = '/flags/:flagKey/rules';
  routes.namespaced('GET', rules, async (request) =>
    store.listRules(namespaceOf(request), params(request).flagKey, parse(ListRequest, message(request))),
  );
  routes.namespaced('GET', `${rules}/:id`, async (request) =>
    store.getRule(namespaceOf(request), params(request).flagKey, params(request).id),
  );
  routes.namespaced('POST', rules, async (request) => store.createRule(parse(CreateRuleRequest, message(request))));
  routes.namespaced('PUT', `${rules}/order`, async (request) => {
    await store.orderRules(parse(OrderRulesRequest, message(request)));
    return {};
  });
  routes.namespaced('PUT', `${rules}/:id`, async (request) =>
    store.updateRule(parse(UpdateRuleRequest, message(request))),
  );
  routes.namespaced('DELETE', `${rules}/:id`, async (request) => {
    await store.deleteRule(namespaceOf(request), params(request).flagKey, params(request).id);
    return {};
  });

  const distributions = `${rules}/:ruleId/distributions`;
  routes.namespaced('POST', distributions, async (request) =>
    store.createDistribution(parse(CreateDistributionRequest, message(request))),
  );
  routes.namespaced('PUT', `${distributions}/:id`, async (request) =>
    store.updateDistribution(parse(UpdateDistributionRequest, message(request))),
  );
  routes.namespaced('DELETE', `${distributions}/:id`, async (request) => {
    await store.deleteDistribution(parse(DeleteDistributionRequest, message(request)));
    return {};
  });
}
