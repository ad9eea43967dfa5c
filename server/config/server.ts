import { readFileSync } from 'node:fs';
import * as v from 'valibot';
import { duration, parseDurationMs } from './duration.js';
import { ConfigError } from './errors.js';
import { defineSection, num, opt, pick, str } from './section.js';

/** A number of requests per window from one client address; 0 turns the limit off. */
const requestsPerWindow = v.pipe(num, v.integer('must be a whole number'), v.minValue(0, 'must be 0 or more'));

/** Ensign's own `server.rate_limits` (server/rate-limits.ts). */
const rateLimitsSection = v.strictObject({
  window: opt(duration),
  login: opt(requestsPerWindow),
  token_creation: opt(requestsPerWindow),
  survey_uploads: opt(requestsPerWindow),
  survey_writes: opt(requestsPerWindow),
  evaluation: opt(requestsPerWindow),
});

export interface RateLimits {
  windowMs: number;
  login: number;
  tokenCreation: number;
  surveyUploads: number;
  surveyWrites: number;
  evaluation: number;
}

export interface ServerConfig {
  /**
   * `workers`: how many processes serve on the port (1: this process alone). `port` is the port
   * listened on: `http_port`, or `https_port` when `protocol` is https, which also needs `tls`.
   */
  server: {
    protocol: 'http' | 'https';
    host: string;
    port: number;
    workers: number;
    shutdownTimeoutMs: number;
    tls?: { cert: Buffer; key: Buffer };
  };
  /** Requests per client address and window, by kind of route; 0 is no limit (server/rate-limits.ts). */
  rateLimits: RateLimits;
}

export const serverSection = defineSection({
  key: 'server',
  schema: v.strictObject({
    protocol: opt(str),
    host: opt(str),
    http_port: opt(num),
    https_port: opt(num),
    grpc_port: opt(num),
    cert_file: opt(str),
    cert_key: opt(str),
    // Ensign's own: how many processes serve (node:cluster), see server/workers.ts.
    workers: opt(num),
    // Ensign's own: requests per client address (server/rate-limits.ts).
    rate_limits: opt(rateLimitsSection),
    // Ensign's own: how long SIGTERM waits for in-flight requests before the process exits anyway.
    shutdown_timeout: opt(duration),
  }),
  refused: { 'server.grpc_port': 'Ensign serves no gRPC API' },
  resolve(file, { flags, env }): ServerConfig {
    const protocol = file.protocol ?? 'http';
    if (protocol !== 'http' && protocol !== 'https') {
      throw new ConfigError(`server.protocol must be "http" or "https" (got "${protocol}")`);
    }
    const server: ServerConfig['server'] = {
      protocol,
      host: pick(flags.host, env.HOST, file.host) ?? '0.0.0.0',
      port: 8080,
      workers: 1,
      shutdownTimeoutMs: 30_000,
    };
    if (protocol === 'https') {
      server.port = 443;
      server.tls = {
        cert: readTlsFile(file.cert_file, 'server.cert_file'),
        key: readTlsFile(file.cert_key, 'server.cert_key'),
      };
    } else {
      for (const key of ['https_port', 'cert_file', 'cert_key'] as const) {
        if (file[key] !== undefined) throw new ConfigError(`server.${key} is only used with server.protocol: https`);
      }
    }
    const filePort = protocol === 'https' ? file.https_port : file.http_port;
    const port = pick(flags.port, env.PORT, filePort?.toString());
    if (port !== undefined) server.port = parsePort(port, flags.port !== undefined ? '--port' : 'PORT');
    if (file.shutdown_timeout !== undefined) {
      server.shutdownTimeoutMs = parseDurationMs(file.shutdown_timeout, 'server.shutdown_timeout');
    }
    const workers = pick(flags.workers, env.ENSIGN_WORKERS, file.workers?.toString());
    if (workers !== undefined)
      server.workers = parseWorkers(
        workers,
        flags.workers !== undefined
          ? '--workers'
          : env.ENSIGN_WORKERS !== undefined
            ? 'ENSIGN_WORKERS'
            : 'server.workers',
      );
    return { server, rateLimits: rateLimitsOf(file.rate_limits ?? {}) };
  },
});

function rateLimitsOf(section: v.InferOutput<typeof rateLimitsSection>): RateLimits {
  const windowMs = section.window === undefined ? 60_000 : parseDurationMs(section.window, 'server.rate_limits.window');
  if (windowMs < 1000)
    throw new ConfigError(`server.rate_limits.window must be 1s or longer (got "${section.window}")`);
  return {
    windowMs,
    login: section.login ?? 30,
    tokenCreation: section.token_creation ?? 30,
    surveyUploads: section.survey_uploads ?? 60,
    surveyWrites: section.survey_writes ?? 600,
    evaluation: section.evaluation ?? 0,
  };
}

function readTlsFile(path: string | undefined, key: string): Buffer {
  if (!path) throw new ConfigError(`${key} is required when server.protocol is https`);
  try {
    return readFileSync(path);
  } catch (error) {
    throw new ConfigError(`${key}: cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
}

function parsePort(value: string, source: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`${source} must be a port number from 0 to 65535 (got "${value}")`);
  }
  return port;
}

function parseWorkers(value: string, source: string): number {
  const workers = Number(value);
  if (!Number.isInteger(workers) || workers < 1 || workers > 64) {
    throw new ConfigError(`${source} must be a whole number of processes from 1 to 64 (got "${value}")`);
  }
  return workers;
}
