import { closeSync, createWriteStream, openSync } from 'node:fs';
import { ConfigError, type Config, demoEnabled } from './config/index.js';
import { redact } from './db/index.js';

/** The pino options Fastify is given: `log.level`, and lines in `log.encoding` to `log.file` or standard output. */
export function loggerOptions(config: Config): { level: string; stream: { write(line: string): void } } {
  const { file } = config.log;
  if (file) assertWritable(file);
  const destination = file ? createWriteStream(file, { flags: 'a' }) : process.stdout;
  const readable = (config.log.encoding ?? (!file && process.stdout.isTTY ? 'console' : 'json')) === 'console';
  return {
    level: config.log.level,
    stream: { write: (line: string) => destination.write(readable ? readableLine(line) : line) },
  };
}

function assertWritable(path: string): void {
  try {
    closeSync(openSync(path, 'a'));
  } catch (error) {
    throw new ConfigError(`log.file: cannot write ${path}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
}

const LEVEL_NAMES: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};
/** Fields every line has, or that the readable line shows in its own place. */
const SHOWN_APART = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'err']);

/** A pino JSON line as a terminal reader wants it: `time LEVEL [request] message key=value ...`, then an error's stack. */
export function readableLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json);
  } catch {
    return json;
  }
  const parts = [
    new Date(Number(entry.time)).toISOString(),
    (LEVEL_NAMES[Number(entry.level)] ?? String(entry.level)).padEnd(5),
  ];
  if (entry.reqId !== undefined) parts.push(`[${entry.reqId}]`);
  parts.push(String(entry.msg ?? ''));
  for (const [key, value] of Object.entries(entry)) {
    if (!SHOWN_APART.has(key)) parts.push(`${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  }
  const error = entry.err as { stack?: string; message?: string } | undefined;
  const stack = error ? `\n${error.stack ?? error.message}` : '';
  return `${parts.join(' ')}${stack}\n`;
}

/** The prefix of the User Timing marks that end each step of `ensign serve`'s start (startupSteps). */
export const STARTUP_MARK = 'ensign:';

/**
 * How long each step of the start took, in milliseconds, from the marks set as each ended (`modules`: Node's own
 * start and loading the code; then `config`, `database`, `app`, `listen`, `grpc`), and the total since the
 * process started. Those marks are cleared.
 */
export function startupSteps(): Record<string, number> {
  const steps: Record<string, number> = {};
  let previous = 0;
  for (const mark of performance.getEntriesByType('mark')) {
    if (!mark.name.startsWith(STARTUP_MARK)) continue;
    steps[mark.name.slice(STARTUP_MARK.length)] = Math.round(mark.startTime - previous);
    previous = mark.startTime;
    performance.clearMarks(mark.name);
  }
  return { ...steps, total: Math.round(previous) };
}

/** What an operator wants to see once the server listens. */
export function startupSummary(config: Config, version: string, url: string): Record<string, unknown> {
  const methods = config.authentication.methods ?? {};
  const enabled = Object.entries(methods)
    .filter(([, method]) => (method as { enabled?: boolean } | undefined)?.enabled)
    .map(([name]) => name);
  return {
    version,
    console: `${url}/`,
    ...(demoEnabled(config)
      ? { demo: `${url}/demo/` }
      : config.surveys.enabled &&
        config.surveys.demo === undefined && {
          demo: 'off: authentication is required (surveys.demo: true turns it on)',
        }),
    database: redact(config.db.url),
    storage: config.storage.type,
    authentication: enabled.length ? enabled.join(',') : 'none',
    workers: config.server.workers,
    metrics: config.metrics.enabled ? `${url}/metrics` : 'off',
    tracing: config.tracing.enabled ? config.tracing.endpoint : 'off',
  };
}
