import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import type { TestApp } from '../support.js';
import { startGrpcServer, type GrpcServer } from '../../../server/grpc/server.js';

const PROTO_DIR = join(import.meta.dirname, '../../../proto');

/**
 * A gRPC client built as a Flipt client would be: from the .proto files, with @grpc/proto-loader's
 * own decoding (not the server's codec). Answers are turned into the REST API's JSON by the proto3
 * JSON mapping (`toRestJson`) so that the two can be compared.
 */
export class GrpcClient {
  private readonly services = new Map<string, grpc.Client>();
  private readonly definitions: protoLoader.PackageDefinition;

  constructor(
    readonly port: number,
    private readonly options: grpc.ChannelOptions = {},
  ) {
    this.definitions = protoLoader.loadSync(
      [
        'flipt/flipt.proto',
        'flipt/evaluation/evaluation.proto',
        'flipt/ofrep/ofrep.proto',
        'flipt/meta/meta.proto',
        'flipt/auth/auth.proto',
        'grpc/health/v1/health.proto',
      ],
      { includeDirs: [PROTO_DIR], keepCase: false, enums: String, longs: Number, defaults: true, oneofs: false },
    );
  }

  /** Calls `service/method`; resolves with the answer, or rejects with the status (`code`, `details`). */
  call<T = any>(service: string, method: string, request: object = {}, metadata: Record<string, string> = {}) {
    let client = this.services.get(service);
    if (!client) {
      const Client = grpc.makeGenericClientConstructor(this.definitions[service] as grpc.ServiceDefinition, service);
      client = new Client(`127.0.0.1:${this.port}`, grpc.credentials.createInsecure(), this.options);
      this.services.set(service, client);
    }
    const meta = new grpc.Metadata();
    for (const [key, value] of Object.entries(metadata)) meta.set(key, value);
    return new Promise<T>((resolve, reject) => {
      (client as unknown as Record<string, (...args: unknown[]) => void>)[method](
        request,
        meta,
        (error: grpc.ServiceError | null, answer: T) => (error ? reject(error) : resolve(answer)),
      );
    });
  }

  close(): void {
    for (const client of this.services.values()) client.close();
  }
}

/** Starts the app's gRPC server on a free port, with a client for it. */
export async function startGrpc(
  test: Pick<TestApp, 'app'>,
): Promise<{ server: GrpcServer; client: GrpcClient; close(): Promise<void> }> {
  const server = await startGrpcServer(test.app.ensign, {
    host: '127.0.0.1',
    port: 0,
    protoDir: PROTO_DIR,
    log: { info: () => {}, error: () => {} },
  });
  const client = new GrpcClient(server.port);
  return {
    server,
    client,
    close: async () => {
      client.close();
      await server.close(1000);
    },
  };
}

/**
 * A decoded message in the REST API's JSON terms: Timestamps as instants, Structs and Values as JSON,
 * unset message fields (null once decoded) left out, as Flipt v1.54 and later write them. Timestamps on
 * both sides go through `instant` to compare them.
 */
export function toRestJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toRestJson);
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return value;
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object);
  if (keys.length === 2 && 'seconds' in object && 'nanos' in object) {
    return `${object.seconds}.${String(object.nanos).padStart(9, '0')}`;
  }
  if (keys.length === 1 && 'fields' in object) return structJson(object.fields as Record<string, any>);
  if (keys.length === 1 && VALUE_KINDS.includes(keys[0])) return valueJson(object);
  return Object.fromEntries(keys.filter((key) => object[key] !== null).map((key) => [key, toRestJson(object[key])]));
}

/** google.protobuf.Value's kinds: an object with one of them alone is a Value (no Flipt message has such a field). */
const VALUE_KINDS = ['nullValue', 'numberValue', 'stringValue', 'boolValue', 'structValue', 'listValue'];

function structJson(fields: Record<string, any>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, valueJson(value)]));
}

function valueJson(value: any): unknown {
  if (value.structValue) return structJson(value.structValue.fields ?? {});
  if (value.listValue) return (value.listValue.values ?? []).map(valueJson);
  for (const kind of ['stringValue', 'numberValue', 'boolValue'])
    if (value[kind] !== undefined && value[kind] !== null) return value[kind];
  return null;
}

/** RFC 3339 text as `seconds.nanoseconds`, the form toRestJson gives a Timestamp. */
export function instant(text: string): string {
  const match = /^(.*?)(?:\.(\d+))?Z$/.exec(text)!;
  return `${Date.parse(`${match[1]}Z`) / 1000}.${(match[2] ?? '').padEnd(9, '0')}`;
}

/** A REST answer with its timestamps as instants (fields named `*At` and `timestamp`). */
export function restWithInstants(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(restWithInstants);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      typeof item === 'string' && (key.endsWith('At') || key === 'timestamp') ? instant(item) : restWithInstants(item),
    ]),
  );
}
