import {
  CreateConstraintRequest,
  CreateDistributionRequest,
  CreateFlagRequest,
  CreateNamespaceRequest,
  CreateRolloutRequest,
  CreateRuleRequest,
  CreateSegmentRequest,
  CreateVariantRequest,
  DeleteDistributionRequest,
  DeleteNamespaceRequest,
  ListRequest,
  OrderRolloutsRequest,
  OrderRulesRequest,
  UpdateConstraintRequest,
  UpdateDistributionRequest,
  UpdateFlagRequest,
  UpdateNamespaceRequest,
  UpdateRolloutRequest,
  UpdateRuleRequest,
  UpdateSegmentRequest,
  UpdateVariantRequest,
} from '../../domain/flipt/schemas.js';
import { DEFAULT_NAMESPACE } from '../../domain/flipt/types.js';
import { type FliptMessage, parse } from './routes/http.js';
import type { FliptStore } from './store/index.js';

export type { FliptMessage };

/**
 * The `flipt.Flipt` RPCs over the store, one function each (`listFlags` is ListFlags): the REST routes (server/flipt/routes/)
 * and the gRPC service (server/grpc/) both call these, so the two APIs cannot drift apart.
 */
export function fliptOperations(store: FliptStore) {
  return {
    listNamespaces: (m: unknown) => store.listNamespaces(parse(ListRequest, m)),
    getNamespace: (m: FliptMessage) => store.getNamespace(text(m.key)),
    createNamespace: (m: unknown) => store.createNamespace(parse(CreateNamespaceRequest, m)),
    updateNamespace: (m: unknown) => store.updateNamespace(parse(UpdateNamespaceRequest, m)),
    deleteNamespace: async (m: unknown) => {
      const { key, force } = parse(DeleteNamespaceRequest, m);
      await store.deleteNamespace(key, { force });
      return {};
    },

    listFlags: (m: FliptMessage) => store.listFlags(namespace(m), parse(ListRequest, m)),
    getFlag: (m: FliptMessage) => store.getFlag(namespace(m), text(m.key)),
    createFlag: (m: unknown) => store.createFlag(parse(CreateFlagRequest, m)),
    updateFlag: (m: unknown) => store.updateFlag(parse(UpdateFlagRequest, m)),
    deleteFlag: async (m: FliptMessage) => {
      await store.deleteFlag(namespace(m), text(m.key));
      return {};
    },
    createVariant: (m: unknown) => store.createVariant(parse(CreateVariantRequest, m)),
    updateVariant: (m: unknown) => store.updateVariant(parse(UpdateVariantRequest, m)),
    deleteVariant: async (m: FliptMessage) => {
      await store.deleteVariant(namespace(m), text(m.flagKey), text(m.id));
      return {};
    },

    listRules: (m: FliptMessage) => store.listRules(namespace(m), text(m.flagKey), parse(ListRequest, m)),
    getRule: (m: FliptMessage) => store.getRule(namespace(m), text(m.flagKey), text(m.id)),
    createRule: (m: unknown) => store.createRule(parse(CreateRuleRequest, m)),
    updateRule: (m: unknown) => store.updateRule(parse(UpdateRuleRequest, m)),
    orderRules: async (m: unknown) => {
      await store.orderRules(parse(OrderRulesRequest, m));
      return {};
    },
    deleteRule: async (m: FliptMessage) => {
      await store.deleteRule(namespace(m), text(m.flagKey), text(m.id));
      return {};
    },
    createDistribution: (m: unknown) => store.createDistribution(parse(CreateDistributionRequest, m)),
    updateDistribution: (m: unknown) => store.updateDistribution(parse(UpdateDistributionRequest, m)),
    deleteDistribution: async (m: unknown) => {
      await store.deleteDistribution(parse(DeleteDistributionRequest, m));
      return {};
    },

    listRollouts: (m: FliptMessage) => store.listRollouts(namespace(m), text(m.flagKey), parse(ListRequest, m)),
    getRollout: (m: FliptMessage) => store.getRollout(namespace(m), text(m.flagKey), text(m.id)),
    createRollout: (m: unknown) => store.createRollout(parse(CreateRolloutRequest, m)),
    updateRollout: (m: unknown) => store.updateRollout(parse(UpdateRolloutRequest, m)),
    orderRollouts: async (m: unknown) => {
      await store.orderRollouts(parse(OrderRolloutsRequest, m));
      return {};
    },
    deleteRollout: async (m: FliptMessage) => {
      await store.deleteRollout(namespace(m), text(m.flagKey), text(m.id));
      return {};
    },

    listSegments: (m: FliptMessage) => store.listSegments(namespace(m), parse(ListRequest, m)),
    getSegment: (m: FliptMessage) => store.getSegment(namespace(m), text(m.key)),
    createSegment: (m: unknown) => store.createSegment(parse(CreateSegmentRequest, m)),
    updateSegment: (m: unknown) => store.updateSegment(parse(UpdateSegmentRequest, m)),
    deleteSegment: async (m: FliptMessage) => {
      await store.deleteSegment(namespace(m), text(m.key));
      return {};
    },
    createConstraint: (m: unknown) => store.createConstraint(parse(CreateConstraintRequest, m)),
    updateConstraint: (m: unknown) => store.updateConstraint(parse(UpdateConstraintRequest, m)),
    deleteConstraint: async (m: FliptMessage) => {
      await store.deleteConstraint(namespace(m), text(m.segmentKey), text(m.id));
      return {};
    },
  };
}

export type FliptOperations = ReturnType<typeof fliptOperations>;

/** The message's namespace; empty or absent means "default", as everywhere in Flipt. */
export function namespace(m: FliptMessage): string {
  return text(m.namespaceKey) || DEFAULT_NAMESPACE;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
