import { readFileSync } from 'node:fs';
import * as v from 'valibot';
import { duration, parseDurationMs } from './duration.js';
import { ConfigError } from './errors.js';
import { defineSection, num, opt, str } from './section.js';

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
    /** Flipt's gRPC API (server/grpc/): its port, 0 for none; `grpcPortSet` when the file named it. */
    grpcPort: number;
    grpcPortSet: boolean;
  };
  /** Requests per client address and window, by kind of route; 0 is no limit (server/rate-limits.ts). */
  rateLimits: RateLimits;
}

const PORT = 'must be a port number from 0 to 65535';
const port = v.pipe(v.number(PORT), v.integer(PORT), v.minValue(0, PORT), v.maxValue(65535, PORT));
const WORKERS = 'must be a whole number of processes from 1 to 64';

export const serverSection = defineSection({
  key: 'server',
  schema: v.strictObject({
    protocol: opt(v.picklist(['http', 'https'], 'must be "http" or "https"')),
    host: opt(str),
    http_port: opt(port),
    https_port: opt(port),
    grpc_port: opt(port),
    cert_file: opt(str),
    cert_key: opt(str),
    // Ensign's own: how many processes serve (node:cluster), see server/workers.ts.
    workers: opt(v.pipe(v.number(WORKERS), v.integer(WORKERS), v.minValue(1, WORKERS), v.maxValue(64, WORKERS))),
    // Ensign's own: requests per client address (server/rate-limits.ts).
    rate_limits: opt(rateLimitsSection),
    // Ensign's own: how long SIGTERM waits for in-flight requests before the process exits anyway.
    shutdown_timeout: opt(duration),
  }),
  defaults: {
    protocol: 'http',
    host: '0.0.0.0',
    http_port: 8080,
    workers: 1,
    shutdown_timeout: '30s',
    rate_limits: { window: '1m', login: 30, token_creation: 30, survey_uploads: 60, survey_writes: 600, evaluation: 0 },
  },
  resolve(settings): ServerConfig {
    const { protocol } = settings;
    const server: ServerConfig['server'] = {
      protocol,
      host: settings.host,
      port: protocol === 'https' ? (settings.https_port ?? 443) : settings.http_port,
      workers: settings.workers,
      shutdownTimeoutMs: parseDurationMs(settings.shutdown_timeout, 'server.shutdown_timeout'),
      grpcPort: settings.grpc_port ?? 9000,
      grpcPortSet: settings.grpc_port !== undefined,
    };
    if (protocol === 'https') {
      server.tls = {
        cert: readTlsFile(settings.cert_file, 'server.cert_file'),
        key: readTlsFile(settings.cert_key, 'server.cert_key'),
      };
    } else {
      for (const key of ['https_port', 'cert_file', 'cert_key'] as const) {
        if (settings[key] !== undefined)
          throw new ConfigError(`server.${key} is only used with server.protocol: https`);
      }
    }
    return { server, rateLimits: rateLimitsOf(settings.rate_limits) };
  },
});

function rateLimitsOf(section: Required<v.InferOutput<typeof rateLimitsSection>>): RateLimits {
  const windowMs = parseDurationMs(section.window, 'server.rate_limits.window');
  if (windowMs < 1000)
    throw new ConfigError(`server.rate_limits.window must be 1s or longer (got "${section.window}")`);
  return {
    windowMs,
    login: section.login,
    tokenCreation: section.token_creation,
    surveyUploads: section.survey_uploads,
    surveyWrites: section.survey_writes,
    evaluation: section.evaluation,
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
