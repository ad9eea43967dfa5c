import { isAbsolute, join } from 'node:path';
import type * as grpc from '@grpc/grpc-js';
import type { Method } from 'protobufjs';
import { AuthMetadata, type Authentication } from '../../domain/flipt/auth.js';
import { authenticateHeader, type Protection } from '../auth/enforce.js';
import type { AuthRuntime } from '../auth/runtime.js';
import type { AppContext } from '../context.js';
import type { GrpcMethodCounters } from '../metrics.js';
import { DatabaseBusyError } from '../db/sqlite-writes.js';
import { FliptError, GrpcCode, unauthenticated } from '../flipt/errors.js';
import { decodeJson, encodeJson } from './codec.js';
import {
  FrontStatus,
  MAX_CONCURRENT_STREAMS,
  MAX_MESSAGE,
  PEER_HEADER,
  startFront,
  type FrontMethod,
} from './front.js';
import { protobuf, requireGrpc } from './protobuf.js';
import { RateLimiter } from './rate-limiter.js';
import { addressOf, grpcServices, type CallInfo, type MethodSpec } from './services.js';

/** The .proto files of the services served, under `proto/` at the package root (docs/compatibility.md, "gRPC"). */
const PROTO_FILES = [
  'flipt/flipt.proto',
  'flipt/evaluation/evaluation.proto',
  'flipt/ofrep/ofrep.proto',
  'flipt/meta/meta.proto',
  'flipt/auth/auth.proto',
  'grpc/health/v1/health.proto',
];

export interface GrpcOptions {
  host: string;
  /** 0 picks a free port (tests). */
  port: number;
  /** Where the .proto files are (the package's `proto/` folder). */
  protoDir: string;
  log: { info(message: string): void; error(object: unknown, message?: string): void };
}

export interface GrpcServer {
  port: number;
  /** Stops accepting calls and waits for the running ones, at most `timeoutMs`, then cancels the rest. */
  close(timeoutMs?: number): Promise<void>;
}

/**
 * The gRPC API of Flipt v1.47 on its own port, beside the HTTP server and over the same stores,
 * snapshots and handlers (docs/architecture.md, "gRPC"). Each call passes what Flipt's interceptors
 * apply to it, in their order: authentication (the `authorization` metadata), namespace-scoped
 * tokens, rate limits, then the handler; errors become the status codes of Flipt's REST errors.
 */
export async function startGrpcServer(context: AppContext, options: GrpcOptions): Promise<GrpcServer> {
  let serving = true;
  let backend: Backend | undefined;
  const frontMethods = new MethodsPreparedOnFirstLookup(() => {
    backend ??= prepareBackend(context, options, frontMethods, () => serving);
    return backend;
  });
  const { tls } = context.config.server;
  const front = await startFront({
    host: options.host,
    port: options.port,
    tls,
    methods: frontMethods,
    statusOf: (error) => statusOf(error, options.log),
    inject: (connection) => frontMethods.backend().injector.injectConnection(connection),
  });
  options.log.info(`gRPC listening on ${options.host}:${front.port}${tls ? ' (TLS)' : ''}`);

  return {
    port: front.port,
    close: (timeoutMs = 30_000) =>
      new Promise<void>((resolve) => {
        serving = false;
        const timer = setTimeout(() => {
          front.destroy();
          backend?.server.forceShutdown();
        }, timeoutMs);
        timer.unref();
        const grpcDone = new Promise<void>((done) => (backend ? backend.server.tryShutdown(() => done()) : done()));
        Promise.all([front.close(), grpcDone]).then(() => {
          clearTimeout(timer);
          backend?.injector.destroy();
          resolve();
        });
      }),
  };
}

/** grpc-js serving the services, behind the front. */
interface Backend {
  server: grpc.Server;
  injector: ReturnType<grpc.Server['createConnectionInjector']>;
}

/**
 * The front's methods, prepared with grpc-js at the first lookup, which the front makes when the first
 * stream arrives: loading grpc-js and the .proto files, and indexing them for reflection, took most of
 * the server's start-up CPU time (bench/startup), and a server may never be called over gRPC. The
 * preparation is synchronous, so that first stream waits for nothing else.
 */
class MethodsPreparedOnFirstLookup extends Map<string, FrontMethod> {
  constructor(readonly backend: () => Backend) {
    super();
  }

  override get(path: string): FrontMethod | undefined {
    this.backend();
    return super.get(path);
  }
}

/** grpc-js with the services and reflection, the front's own methods added to `frontMethods`. */
function prepareBackend(
  context: AppContext,
  options: GrpcOptions,
  frontMethods: Map<string, FrontMethod>,
  serving: () => boolean,
): Backend {
  const grpc = requireGrpc('@grpc/grpc-js') as typeof import('@grpc/grpc-js');
  const protoLoader = requireGrpc('@grpc/proto-loader') as typeof import('@grpc/proto-loader');
  const { ReflectionService } = requireGrpc('@grpc/reflection') as typeof import('@grpc/reflection');
  const files = PROTO_FILES.map((file) => join(options.protoDir, file));
  const root = new (protobuf().Root)();
  // Imports name paths under protoDir; protobufjs ships the google/protobuf ones itself.
  root.resolvePath = (_origin, target) =>
    isAbsolute(target) || target.startsWith('google/protobuf/') ? target : join(options.protoDir, target);
  root.loadSync(files);
  root.resolveAll();
  const definitions = protoLoader.loadSync(PROTO_FILES, {
    includeDirs: [options.protoDir],
    keepCase: false,
    enums: String,
    longs: Number,
    defaults: false,
  });

  // The limits the front applies to the calls it answers itself, so that a call is held to the same ones
  // whichever side answers it.
  const server = new grpc.Server({
    'grpc.max_receive_message_length': MAX_MESSAGE,
    'grpc.max_concurrent_streams': MAX_CONCURRENT_STREAMS,
  });
  const limiter = new RateLimiter(context.config.rateLimits);
  const { metrics, tracing } = context;

  for (const spec of grpcServices(context, serving)) {
    const service = root.lookupService(spec.name);
    const definition: Record<string, grpc.MethodDefinition<unknown, unknown>> = {};
    const implementation: grpc.UntypedServiceImplementation = {};
    const guarded = isGuarded(context, spec.protection);
    for (const method of service.methodsArray) {
      method.resolve();
      const handler = spec.methods[method.name];
      if (!handler) continue;
      const path = `/${spec.name}/${method.name}`;
      definition[method.name] = methodDefinition(path, method, handler);
      const counters = metrics?.grpcMethod({
        grpc_type: method.responseStream ? 'server_stream' : 'unary',
        grpc_service: spec.name,
        grpc_method: method.name,
      });
      // A kind without a limit (0) is not counted at all.
      const limited = handler.limited && limiter.limits(handler.limited) ? handler.limited : undefined;
      /** Authentication, the first of Flipt's interceptors: from the call's headers alone, synchronous when nothing guards the service. */
      const admit = (headers: Record<string, string>): Authentication | undefined | Promise<Authentication> =>
        guarded ? authenticate(context.auth!, headers) : undefined;
      /** The rest of Flipt's interceptors in their order (namespace scope, rate limit), then the handler. */
      const invoke = (request: Record<string, unknown>, info: CallInfo): unknown => {
        const scope = info.authentication?.metadata[AuthMetadata.tokenNamespace];
        if (scope !== undefined) {
          const namespaces = handler.namespaces?.(request, info);
          if (!namespaces || namespaces.length === 0 || namespaces.some((ns) => ns !== scope)) throw unauthenticated();
        }
        if (limited) limiter.check(limited, addressOf(info.peer));
        return handler.run(request, info);
      };
      /** A call through grpc-js: admitted, then invoked. */
      const admitAndInvoke = (request: Record<string, unknown>, info: CallInfo): unknown => {
        const admitted = admit(info.headers);
        if (!(admitted instanceof Promise)) return invoke(request, info);
        return admitted.then((authentication) => {
          info.authentication = authentication;
          return invoke(request, info);
        });
      };
      const traced = (request: Record<string, unknown>, info: CallInfo, run = admitAndInvoke) =>
        tracing ? tracing.rpc(spec.name, method.name, async () => run(request, info)) : run(request, info);
      if (handler.direct && !method.responseStream) {
        // Answered by the front from node:http2; grpc-js keeps it for a call that reaches it (compressed).
        const { decode } = handler.direct;
        frontMethods.set(
          path,
          frontMethod(admit, (message, info) => traced(decode(message), info, invoke), counters),
        );
      }
      implementation[method.name] = grpcJsMethod(
        Boolean(method.responseStream),
        (call) => settle(() => traced(call.request as Record<string, unknown>, callInfoOf(call))),
        counters,
        options.log,
      );
    }
    server.addService(definition, implementation);
  }
  new ReflectionService(definitions).addToServer(server);

  // grpc-js listens on no port: the front hands it the connections it passes on.
  return { server, injector: server.createConnectionInjector(grpc.ServerCredentials.createInsecure()) };
}

/** How grpc-js reads and writes the method's messages: JSON through protobuf, or the handler's own bytes. */
function methodDefinition(path: string, method: Method, handler: MethodSpec): grpc.MethodDefinition<unknown, unknown> {
  const requestType = method.resolvedRequestType!;
  const responseType = method.resolvedResponseType!;
  return {
    path,
    requestStream: false,
    responseStream: Boolean(method.responseStream),
    requestDeserialize: handler.direct?.decode ?? ((buffer: Buffer) => decodeJson(requestType, buffer)),
    requestSerialize: (value: unknown) => encodeJson(requestType, value),
    responseSerialize: handler.direct
      ? (value: unknown) => value as Buffer
      : (value: unknown) => encodeJson(responseType, value),
    responseDeserialize: (buffer: Buffer) => decodeJson(responseType, buffer),
  };
}

/** A method the front answers: admitted from the headers, then run on the message, counted either way. */
function frontMethod(
  admit: (headers: Record<string, string>) => Authentication | undefined | Promise<Authentication>,
  run: (message: Buffer, info: CallInfo) => unknown,
  counters: GrpcMethodCounters | undefined,
): FrontMethod {
  const failed = (error: unknown) => counters?.handled(codeName(codeOf(error)));
  return {
    admit: (headers) => admit(headers as Record<string, string>),
    run: (message, headers, peer, authentication) => {
      counters?.started();
      let answer: unknown;
      try {
        const info: CallInfo = { headers: headers as Record<string, string>, peer };
        info.authentication = authentication as Authentication | undefined;
        answer = run(message, info);
      } catch (error) {
        failed(error);
        throw error;
      }
      if (answer instanceof Promise) {
        return answer.then(
          (buffer: Buffer) => {
            counters?.handled('OK');
            return buffer;
          },
          (error: unknown) => {
            failed(error);
            throw error;
          },
        );
      }
      counters?.handled('OK');
      return answer as Buffer;
    },
  };
}

type GrpcJsCall = grpc.ServerUnaryCall<unknown, unknown> | grpc.ServerWritableStream<unknown, unknown>;

const callInfoOf = (call: GrpcJsCall): CallInfo => {
  const { headers, peer } = callerOf(call);
  return { headers, peer, call };
};

/** A method as grpc-js answers it: counted, its answer sent or its stream ended, its error sent as a status. */
function grpcJsMethod(
  streaming: boolean,
  run: (call: GrpcJsCall) => Promise<unknown>,
  counters: GrpcMethodCounters | undefined,
  log: GrpcOptions['log'],
): grpc.UntypedHandleCall {
  const failed = (error: unknown) => {
    const status = statusOf(error, log);
    counters?.handled(codeName(status.code));
    return status;
  };
  if (streaming) {
    return (call: grpc.ServerWritableStream<unknown, unknown>) => {
      counters?.started();
      run(call).then(
        () => {
          counters?.handled('OK');
          call.end();
        },
        (error: unknown) => {
          const status = failed(error);
          call.destroy(Object.assign(new Error(status.details), status));
        },
      );
    };
  }
  return (call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
    counters?.started();
    run(call).then(
      (answer) => {
        counters?.handled('OK');
        callback(null, answer);
      },
      (error: unknown) => callback(failed(error)),
    );
  };
}

/** A value or a promise of it, or its exception, as a promise. */
function settle(run: () => unknown): Promise<unknown> {
  try {
    return Promise.resolve(run());
  } catch (error) {
    return Promise.reject(error);
  }
}

/** The call's metadata as HTTP headers, and the caller's address the front passed on. */
function callerOf(call: GrpcJsCall) {
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(call.metadata.getMap())) {
    if (typeof value === 'string') headers[key] = value;
  }
  const peer = headers[PEER_HEADER] ?? call.getPeer();
  delete headers[PEER_HEADER];
  return { headers, peer };
}

/** Whether `authentication.required` guards the service's calls, as it guards its REST routes. */
function isGuarded(context: AppContext, protection: Protection): boolean {
  const runtime = context.auth;
  if (!runtime?.settings.required || protection === 'public') return false;
  const { exclude } = runtime.settings;
  if (protection === 'management' && exclude.management) return false;
  if (protection === 'evaluation' && exclude.evaluation) return false;
  if (protection === 'ofrep' && exclude.ofrep) return false;
  return true;
}

/** The caller's authentication from the `authorization` metadata, as the HTTP hooks resolve it. */
function authenticate(runtime: AuthRuntime, headers: Record<string, string>): Promise<Authentication> {
  const header = headers.authorization;
  if (header === undefined) return Promise.reject(unauthenticated());
  return authenticateHeader(runtime, header);
}

/** Go's name of a status code (`NotFound`), the `grpc_code` label go-grpc-prometheus gives Flipt's metrics. */
const CODE_NAMES = new Map<number, string>([
  [0, 'OK'],
  ...Object.entries(GrpcCode).map(([name, code]) => [code, name] as [number, string]),
  [15, 'DataLoss'],
]);
const codeName = (code: number) => CODE_NAMES.get(code) ?? `Code(${code})`;

/** The status code of a failure, without logging it. */
function codeOf(error: unknown): number {
  if (error instanceof FliptError) return error.code;
  if (error instanceof DatabaseBusyError) return GrpcCode.Unavailable;
  if (error instanceof FrontStatus) return error.code;
  return GrpcCode.Internal;
}

/** A failure as Flipt's interceptors report it: its code and message, an unexpected error as Internal. */
function statusOf(error: unknown, log: GrpcOptions['log']): { code: grpc.status; details: string } {
  if (error instanceof FliptError) return { code: error.code as number as grpc.status, details: error.message };
  if (error instanceof DatabaseBusyError)
    return { code: GrpcCode.Unavailable as number as grpc.status, details: error.message };
  if (error instanceof FrontStatus) return { code: error.code, details: error.message };
  log.error(error, 'gRPC call failed');
  return { code: GrpcCode.Internal as number as grpc.status, details: 'internal error' };
}
