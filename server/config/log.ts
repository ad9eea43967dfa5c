import { resolve } from 'node:path';
import * as v from 'valibot';
import { ConfigError } from './errors.js';
import { defineSection, opt, pick, str } from './section.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const LEVELS: readonly string[] = ['debug', 'info', 'warn', 'error'] satisfies LogLevel[];

export interface LogConfig {
  /** No `encoding`: readable lines on a terminal, JSON otherwise. No `file`: standard output. */
  log: { level: LogLevel; encoding?: 'console' | 'json'; file?: string };
}

export const logSection = defineSection({
  key: 'log',
  schema: v.strictObject({
    level: opt(v.picklist(['debug', 'info', 'warn', 'error'], 'must be debug, info, warn or error')),
    encoding: opt(v.picklist(['console', 'json'], 'must be "console" or "json"')),
    file: opt(str),
    grpc_level: opt(str),
    keys: opt(v.unknown()),
  }),
  refused: { 'log.grpc_level': 'Ensign serves no gRPC API', 'log.keys': 'log field names are fixed' },
  resolve(file, { flags, env }): LogConfig {
    const log: LogConfig['log'] = { level: 'info' };
    const level = pick(flags.logLevel, env.LOG_LEVEL, file.level);
    if (level !== undefined) {
      if (!LEVELS.includes(level))
        throw new ConfigError(`log level must be debug, info, warn or error (got "${level}")`);
      log.level = level as LogLevel;
    }
    if (file.encoding) log.encoding = file.encoding;
    if (file.file) log.file = resolve(file.file);
    return { log };
  },
});
