import { isAbsolute, join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { ReflectionService } from '@grpc/reflection';
import protobuf from 'protobufjs';
import { AuthMetadata, type Authentication } from '../../domain/flipt/auth.js';
import { authenticateHeader, type Protection } from '../auth/enforce.js';
import type { AppContext } from '../context.js';
import { DatabaseBusyError } from '../db/sqlite-writes.js';
import { FliptError, GrpcCode, unauthenticated } from '../flipt/errors.js';
import { decodeJson, encodeJson } from './codec.js';
import { RateLimiter } from './rate-limiter.js';
import { addressOf, grpcServices, type CallInfo } from './services.js';

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
  const files = PROTO_FILES.map((file) => join(options.protoDir, file));
  const root = new protobuf.Root();
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

  const server = new grpc.Server();
  const limiter = new RateLimiter(context.config.rateLimits);
  const { metrics, tracing } = context;
  let serving = true;

  for (const spec of grpcServices(context, () => serving)) {
    const service = root.lookupService(spec.name);
    const definition: Record<string, grpc.MethodDefinition<unknown, unknown>> = {};
    const implementation: grpc.UntypedServiceImplementation = {};
    for (const method of service.methodsArray) {
      method.resolve();
      const handler = spec.methods[method.name];
      if (!handler) continue;
      const requestType = method.resolvedRequestType!;
      const responseType = method.resolvedResponseType!;
      definition[method.name] = {
        path: `/${spec.name}/${method.name}`,
        requestStream: false,
        responseStream: Boolean(method.responseStream),
        requestDeserialize: handler.direct?.decode ?? ((buffer: Buffer) => decodeJson(requestType, buffer)),
        requestSerialize: (value: unknown) => encodeJson(requestType, value),
        responseSerialize: handler.direct
          ? (value: unknown) => value as Buffer
          : (value: unknown) => encodeJson(responseType, value),
        responseDeserialize: (buffer: Buffer) => decodeJson(responseType, buffer),
      };
      const labels = {
        grpc_type: method.responseStream ? 'server_stream' : 'unary',
        grpc_service: spec.name,
        grpc_method: method.name,
      };
      const run = async (
        request: Record<string, unknown>,
        call: grpc.ServerUnaryCall<unknown, unknown> | grpc.ServerWritableStream<unknown, unknown>,
      ) => {
        const info: CallInfo = { headers: headersOf(call.metadata), peer: call.getPeer(), call };
        info.authentication = await authenticate(context, spec.protection, info.headers);
        const scope = info.authentication?.metadata[AuthMetadata.tokenNamespace];
        if (scope !== undefined) {
          const namespaces = handler.namespaces?.(request, info);
          if (!namespaces || namespaces.length === 0 || namespaces.some((ns) => ns !== scope)) throw unauthenticated();
        }
        if (handler.limited) limiter.check(handler.limited, addressOf(info.peer));
        return handler.run(request, info);
      };
      const traced = (request: Record<string, unknown>, call: Parameters<typeof run>[1]) =>
        tracing ? tracing.rpc(spec.name, method.name, () => run(request, call)) : run(request, call);
      implementation[method.name] = method.responseStream
        ? (call: grpc.ServerWritableStream<Record<string, unknown>, unknown>) => {
            metrics?.grpcStarted(labels);
            traced(call.request, call).then(
              () => {
                metrics?.grpcHandled(labels, 'OK');
                call.end();
              },
              (error: unknown) => {
                const status = statusOf(error, options.log);
                metrics?.grpcHandled(labels, codeName(status.code));
                call.destroy(Object.assign(new Error(status.details), status));
              },
            );
          }
        : (call: grpc.ServerUnaryCall<Record<string, unknown>, unknown>, callback: grpc.sendUnaryData<unknown>) => {
            metrics?.grpcStarted(labels);
            traced(call.request, call).then(
              (answer) => {
                metrics?.grpcHandled(labels, 'OK');
                callback(null, answer);
              },
              (error: unknown) => {
                const status = statusOf(error, options.log);
                metrics?.grpcHandled(labels, codeName(status.code));
                callback(status);
              },
            );
          };
    }
    server.addService(definition, implementation);
  }
  new ReflectionService(definitions).addToServer(server);

  const { tls } = context.config.server;
  const credentials = tls
    ? grpc.ServerCredentials.createSsl(null, [{ cert_chain: tls.cert, private_key: tls.key }], false)
    : grpc.ServerCredentials.createInsecure();
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${options.host}:${options.port}`, credentials, (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  options.log.info(`gRPC listening on ${options.host}:${port}${tls ? ' (TLS)' : ''}`);

  return {
    port,
    close: (timeoutMs = 30_000) =>
      new Promise<void>((resolve) => {
        serving = false;
        const timer = setTimeout(() => server.forceShutdown(), timeoutMs);
        timer.unref();
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
      }),
  };
}

/** The caller's authentication when `authentication.required` guards the service, as the HTTP hooks resolve it. */
async function authenticate(
  context: AppContext,
  protection: Protection,
  headers: Record<string, string>,
): Promise<Authentication | undefined> {
  const runtime = context.auth;
  if (!runtime?.settings.required || protection === 'public') return undefined;
  const { exclude } = runtime.settings;
  if (protection === 'management' && exclude.management) return undefined;
  if (protection === 'evaluation' && exclude.evaluation) return undefined;
  if (protection === 'ofrep' && exclude.ofrep) return undefined;
  const header = headers.authorization;
  if (header === undefined) throw unauthenticated();
  return authenticateHeader(runtime, header);
}

function headersOf(metadata: grpc.Metadata): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(metadata.getMap())) {
    if (typeof value === 'string') headers[key] = value;
  }
  return headers;
}

/** Go's name of a status code (`NotFound`), the `grpc_code` label go-grpc-prometheus gives Flipt's metrics. */
const CODE_NAMES = new Map<number, string>([
  [0, 'OK'],
  ...Object.entries(GrpcCode).map(([name, code]) => [code, name] as [number, string]),
  [15, 'DataLoss'],
]);
const codeName = (code: number) => CODE_NAMES.get(code) ?? `Code(${code})`;

/** A failure as Flipt's interceptors report it: its code and message, an unexpected error as Internal. */
function statusOf(error: unknown, log: GrpcOptions['log']): { code: grpc.status; details: string } {
  if (error instanceof FliptError) return { code: error.code as number as grpc.status, details: error.message };
  if (error instanceof DatabaseBusyError) return { code: grpc.status.UNAVAILABLE, details: error.message };
  log.error(error, 'gRPC call failed');
  return { code: GrpcCode.Internal as number as grpc.status, details: 'internal error' };
}
