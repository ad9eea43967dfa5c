import type * as grpc from '@grpc/grpc-js';
import type { Authentication } from '../../domain/flipt/auth.js';
import { DEFAULT_NAMESPACE } from '../../domain/flipt/types.js';
import type { Protection } from '../auth/enforce.js';
import { authOperations } from '../auth/routes.js';
import type { AppContext } from '../context.js';
import type { EvaluationApi } from '../evaluation/index.js';
import { gateFor } from '../evaluation/snapshot.js';
import { PROVIDER_CONFIGURATION } from '../evaluation/ofrep.js';
import {
  evaluationNamespace,
  legacyEvaluationNamespace,
  namedNamespace,
  ofrepNamespace,
} from '../evaluation/request-namespace.js';
import { FliptError, GrpcCode } from '../flipt/errors.js';
import { fliptOperations, namespace, type FliptMessage } from '../flipt/operations.js';
import { actorFor } from '../flipt/routes/actor.js';
import { metaConfig, metaInfo } from '../flipt/routes/meta.js';
import { runAs } from '../flipt/store/actor.js';
import type { GrpcLimitedKind } from './rate-limiter.js';
import { booleanAnswerMessage, decodeEvaluationRequest, variantAnswerMessage } from './evaluation-codec.js';

/** What a handler may read of its call besides the request message. */
export interface CallInfo {
  /** The call's metadata, as HTTP headers (lower-case names, text values). */
  headers: Record<string, string>;
  peer: string;
  /** The grpc-js call; absent for a call the front answers. */
  call?: grpc.ServerUnaryCall<unknown, unknown> | grpc.ServerWritableStream<unknown, unknown>;
  /** The caller's authentication, when `authentication.required` guards the service. */
  authentication?: Authentication;
}

export interface MethodSpec {
  /** Answers with the REST route's JSON (a value or its text); a stream writes to `info.call` instead. */
  run(request: FliptMessage, info: CallInfo): unknown;
  /** The namespaces the call acts on, for namespace-scoped tokens; absent: a token scoped to a namespace may not call it. */
  namespaces?(request: FliptMessage, info: CallInfo): string[];
  limited?: GrpcLimitedKind;
  /** A decoder of its own for the request, and `run` answering the encoded response: the evaluation hot path. */
  direct?: { decode(buffer: Buffer): FliptMessage };
}

export interface ServiceSpec {
  /** The fully qualified service name (`flipt.Flipt`). */
  name: string;
  /** Which `authentication.exclude` switch lets its calls through unauthenticated, as for the service's REST routes. */
  protection: Protection;
  methods: Record<string, MethodSpec>;
}

const nsOf = (value: unknown) => (typeof value === 'string' && value !== '' ? value : DEFAULT_NAMESPACE);
/** The namespace an evaluation message acts on, read as the REST handler reads its body. */
const evaluatedIn = (message: unknown) => evaluationNamespace(namedNamespace(message) ?? '');
const items = (request: FliptMessage): unknown[] => (Array.isArray(request.requests) ? request.requests : []);

/** The services served, each method calling the function its REST route calls. */
export function grpcServices(context: AppContext, serving: () => boolean): ServiceSpec[] {
  const { evaluation } = context;
  return [
    evaluationService(evaluation),
    dataService(evaluation),
    ofrepService(evaluation),
    fliptService(context, evaluation),
    metadataService(context),
    ...authServices(context),
    healthService(serving),
  ];
}

function evaluationService(api: EvaluationApi): ServiceSpec {
  const direct = { decode: decodeEvaluationRequest };
  const namespaces = (request: FliptMessage) => [evaluatedIn(request)];
  return {
    name: 'flipt.evaluation.EvaluationService',
    protection: 'evaluation',
    methods: {
      Variant: {
        run: (request) => api.variant(request, variantAnswerMessage),
        namespaces,
        limited: 'evaluation',
        direct,
      },
      Boolean: {
        run: (request) => api.boolean(request, booleanAnswerMessage),
        namespaces,
        limited: 'evaluation',
        direct,
      },
      Batch: {
        run: (request) => api.batch(request),
        namespaces: (request) => items(request).map(evaluatedIn),
        limited: 'evaluation',
      },
    },
  };
}

function dataService(api: EvaluationApi): ServiceSpec {
  return {
    name: 'flipt.evaluation.DataService',
    protection: 'evaluation',
    methods: {
      EvaluationSnapshotNamespace: {
        run: async (request, info) => {
          const reference = typeof request.reference === 'string' && request.reference ? request.reference : undefined;
          const snapshot = await api.snapshot(nsOf(request.key), reference);
          return snapshot.json(gateFor(info.headers['x-flipt-accept-server-version'])).toString();
        },
        namespaces: (request) => [nsOf(request.key)],
        limited: 'evaluation',
      },
    },
  };
}

function ofrepService(api: EvaluationApi): ServiceSpec {
  return {
    name: 'flipt.ofrep.OFREPService',
    protection: 'ofrep',
    methods: {
      GetProviderConfiguration: { run: () => PROVIDER_CONFIGURATION },
      EvaluateFlag: {
        run: (request, info) =>
          api.ofrep({ context: request.context ?? {} }, { key: String(request.key ?? ''), headers: info.headers }),
        namespaces: (_request, info) => [ofrepNamespace(info.headers)],
        limited: 'evaluation',
      },
    },
  };
}

function fliptService(context: AppContext, api: EvaluationApi): ServiceSpec {
  const ops = fliptOperations(context.flipt);
  const methods: Record<string, MethodSpec> = {};
  for (const [key, operation] of Object.entries(ops)) {
    const name = key[0].toUpperCase() + key.slice(1);
    methods[name] = {
      // Writes are recorded in the history as the caller's, as the REST routes record them.
      run: (request, info) =>
        runAs(actorFor(info.authentication, addressOf(info.peer)), () =>
          (operation as (m: FliptMessage) => unknown)(request),
        ),
      // Namespaces themselves are no namespace's: a scoped token reaches none of their RPCs, as on REST.
      ...(!name.endsWith('Namespace') &&
        !name.endsWith('Namespaces') && { namespaces: (request) => [namespace(request)] }),
    };
  }
  const legacyNamespace = (request: FliptMessage) => legacyEvaluationNamespace(undefined, request) ?? DEFAULT_NAMESPACE;
  const legacyNamespaces = (request: FliptMessage) => {
    const evaluated = legacyNamespace(request);
    return [evaluated, ...items(request).map((item) => (namedNamespace(item) ? evaluatedIn(item) : evaluated))];
  };
  methods.Evaluate = {
    run: (request) => api.legacyEvaluate(request),
    namespaces: (request) => [legacyNamespace(request)],
    limited: 'evaluation',
  };
  methods.BatchEvaluate = {
    run: (request) => api.legacyBatch(request),
    namespaces: legacyNamespaces,
    limited: 'evaluation',
  };
  return { name: 'flipt.Flipt', protection: 'management', methods };
}

function metadataService({ config }: AppContext): ServiceSpec {
  const body = (json: unknown) => ({ contentType: 'application/json', data: Buffer.from(JSON.stringify(json)) });
  const info = metaInfo(config);
  return {
    name: 'flipt.meta.MetadataService',
    protection: 'always',
    methods: {
      GetInfo: { run: () => body(info) },
      GetConfiguration: { run: () => body(metaConfig(config)) },
    },
  };
}

/** flipt.auth: the public method list, the caller's own authentication and tokens, and CreateToken when the token method is on. */
function authServices({ auth }: AppContext): ServiceSpec[] {
  if (!auth) return [];
  const ops = authOperations(auth);
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const services: ServiceSpec[] = [
    {
      name: 'flipt.auth.PublicAuthenticationService',
      protection: 'public',
      methods: { ListAuthenticationMethods: { run: () => ops.listMethods('') } },
    },
    {
      name: 'flipt.auth.AuthenticationService',
      protection: 'always',
      methods: {
        GetAuthenticationSelf: { run: (_request, info) => ops.self(info.authentication) },
        GetAuthentication: { run: (request) => ops.getToken(text(request.id) ?? '') },
        ListAuthentications: {
          run: (request) =>
            ops.listTokens({
              method: text(request.method),
              limit: request.limit === undefined ? undefined : String(request.limit),
              pageToken: text(request.pageToken),
            }),
        },
        DeleteAuthentication: { run: (request) => ops.deleteToken(text(request.id) ?? '') },
        ExpireAuthenticationSelf: {
          run: async (request, info) => {
            await ops.expireSelf(info.authentication, text(request.expiresAt));
            return {};
          },
        },
      },
    },
  ];
  if (auth.settings.token.enabled) {
    services.push({
      name: 'flipt.auth.AuthenticationMethodTokenService',
      protection: 'always',
      methods: { CreateToken: { run: (request) => ops.createToken(request), limited: 'tokenCreation' } },
    });
  }
  if (auth.kubernetes) {
    services.push({
      name: 'flipt.auth.AuthenticationMethodKubernetesService',
      protection: 'public',
      methods: { VerifyServiceAccount: { run: (request) => ops.verifyServiceAccount(request), limited: 'login' } },
    });
  }
  return services;
}

/** grpc.health.v1: SERVING until shutdown begins, for the server ("") and each service it serves. */
function healthService(serving: () => boolean): ServiceSpec {
  const known = new Set([
    '',
    'flipt.Flipt',
    'flipt.evaluation.EvaluationService',
    'flipt.evaluation.DataService',
    'flipt.ofrep.OFREPService',
    'flipt.meta.MetadataService',
    'flipt.auth.PublicAuthenticationService',
    'flipt.auth.AuthenticationService',
  ]);
  const status = (request: FliptMessage) => {
    if (!known.has(String(request.service ?? ''))) return undefined;
    return { status: serving() ? 'SERVING' : 'NOT_SERVING' };
  };
  return {
    name: 'grpc.health.v1.Health',
    protection: 'public',
    methods: {
      Check: {
        run: (request) => {
          const answer = status(request);
          if (!answer) throw new FliptError(GrpcCode.NotFound, 'unknown service');
          return answer;
        },
      },
      Watch: {
        run: (request, info) => {
          (info.call as grpc.ServerWritableStream<unknown, unknown>).write(
            status(request) ?? { status: 'SERVICE_UNKNOWN' },
          );
        },
      },
    },
  };
}

/** `ipv4:127.0.0.1:5000`, `[::1]:5000` or `127.0.0.1:5000`: the address without its port. */
export function addressOf(peer: string): string {
  const bare = peer.replace(/^ipv[46]:/, '');
  return bare.replace(/:\d+$/, '').replace(/^\[(.*)\]$/, '$1');
}
