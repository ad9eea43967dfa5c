import { createRequire } from 'node:module';
import type protobufjs from 'protobufjs';

/** The gRPC packages (grpc-js, proto-loader, reflection, protobufjs), required only when first used. */
export const requireGrpc = createRequire(import.meta.url);

let loaded: typeof protobufjs | undefined;

/**
 * protobufjs, required at the first gRPC stream rather than imported: loading it was most of what
 * starting the gRPC port cost (bench/startup), and a server may never be called over gRPC.
 */
export function protobuf(): typeof protobufjs {
  loaded ??= requireGrpc('protobufjs') as typeof protobufjs;
  return loaded;
}
