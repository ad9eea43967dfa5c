import { resolve } from 'node:path';
import * as v from 'valibot';
import { defineSection, opt, str } from './section.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

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
  refused: { 'log.grpc_level': 'gRPC calls are logged at log.level', 'log.keys': 'log field names are fixed' },
  defaults: { level: 'info' },
  resolve(settings): LogConfig {
    const log: LogConfig['log'] = { level: settings.level };
    if (settings.encoding) log.encoding = settings.encoding;
    if (settings.file) log.file = resolve(settings.file);
    return { log };
  },
});
