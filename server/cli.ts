import cluster from 'node:cluster';
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, resolveConfig, type Config, type FlagSettings } from './config/index.js';
import type { GrpcServer } from './grpc/server.js';
import { DatabaseOpenError, migrate, openDatabase } from './db/index.js';
import { CommandError, exportCommand, importCommand } from './flipt/declarative/commands.js';
import { superviseWorkers } from './workers.js';
import { STARTUP_MARK, startupSteps, startupSummary } from './logging.js';
import packageJson from '../package.json' with { type: 'json' };

const SERVER_OPTIONS = `Options:
  --port N           port to listen on (PORT, default 8080, or server.https_port with HTTPS)
  --host ADDR        address to listen on (HOST, default 0.0.0.0)
  --workers N        processes serving on the port (ENSIGN_WORKERS, default 1)
  --db URL           file:PATH or postgres://... (DATABASE_URL, default file:./data/ensign.db)
  --config FILE      YAML configuration file in Flipt's config.yml layout (ENSIGN_CONFIG)
  --storage TYPE     database, local or git (ENSIGN_STORAGE_TYPE; git reads storage.git in the config file)
  --storage-path DIR folder of features.yml files for local storage (ENSIGN_STORAGE_PATH)
  --surveys FILE     YAML file that seeds survey environments (ENSIGN_SURVEYS_FILE)
  --log-level LEVEL  debug, info, warn or error (LOG_LEVEL)
Every config.yml key can also be set as FLIPT_ and the key upper-cased, . as _ (FLIPT_DB_URL).`;

const DATABASE_OPTIONS = `Options:
  --db URL           file:PATH or postgres://... (DATABASE_URL, default file:./data/ensign.db)
  --config FILE      YAML configuration file in Flipt's config.yml layout (ENSIGN_CONFIG)`;

const USAGE = `Usage: ensign [command] [options]

Commands:
  serve              run the server (default)
  migrate            apply pending database migrations and exit
  import FILE        import flags and segments from a Flipt features.yml file (one transaction)
      --stdin            read the file from standard input instead
      --skip-existing    keep flags and segments whose key already exists
      --drop             remove every flag, segment and namespace first
  config             print the effective configuration, each value's source, secrets masked
  export             write namespaces as Flipt features.yml (default: namespace "default")
      --namespaces a,b   the namespaces to export
      --all-namespaces   every namespace
      --sort-by-key      namespaces, flags, variants and segments in key order
      -o, --output FILE  write to FILE instead of standard output

${SERVER_OPTIONS}
  -h, --help         show this help (ensign COMMAND --help: that command's)
  -v, --version      print the version and exit`;

/** `ensign COMMAND --help`. */
const COMMAND_USAGE: Record<string, string> = {
  serve: `Usage: ensign serve [options]

Runs the server: the Flipt v1 API, the survey client API, the console, /health and /metrics.
SIGTERM or SIGINT finishes in-flight requests, waiting at most server.shutdown_timeout (30s).

${SERVER_OPTIONS}`,
  config: `Usage: ensign config [options]

Prints every setting the server would run with, one a line: key, value and where it came from
(flag, env, file or default), secrets masked. Stops, as the server would, on a refused or bad one.

${SERVER_OPTIONS}`,
  migrate: `Usage: ensign migrate [options]

Applies pending database migrations, prints their names, and exits.

${DATABASE_OPTIONS}`,
  import: `Usage: ensign import FILE [options]
       ensign import --stdin [options]

Imports flags and segments from a Flipt features.yml file (versions 1.0 to 1.4), in one transaction.
  --stdin            read the file from standard input instead
  --skip-existing    keep flags and segments whose key already exists
  --drop             remove every flag, segment and namespace first

${DATABASE_OPTIONS}`,
  export: `Usage: ensign export [options]

Writes namespaces as Flipt features.yml version 1.4 (default: namespace "default").
  --namespaces a,b   the namespaces to export
  --all-namespaces   every namespace
  --sort-by-key      namespaces (with --all-namespaces), flags, variants and segments in key order
  -o, --output FILE  write to FILE instead of standard output

${DATABASE_OPTIONS}`,
};

const OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  db: { type: 'string' },
  config: { type: 'string' },
  storage: { type: 'string' },
  'storage-path': { type: 'string' },
  surveys: { type: 'string' },
  'log-level': { type: 'string' },
  workers: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  stdin: { type: 'boolean' },
  'skip-existing': { type: 'boolean' },
  drop: { type: 'boolean' },
  namespaces: { type: 'string' },
  'all-namespaces': { type: 'boolean' },
  'sort-by-key': { type: 'boolean' },
  output: { type: 'string', short: 'o' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

function flagSettings(values: Values): FlagSettings {
  return {
    port: values.port,
    host: values.host,
    db: values.db,
    config: values.config,
    storage: values.storage,
    storagePath: values['storage-path'],
    surveys: values.surveys,
    logLevel: values['log-level'],
    workers: values.workers,
  };
}

async function serve(flags: FlagSettings): Promise<void> {
  performance.mark(`${STARTUP_MARK}modules`);
  const { config, warnings } = resolveConfig(flags);
  const missing = Object.values(config.paths).find((path) => !existsSync(path));
  if (missing) throw new CommandError(`the package's files are missing: ${missing} (run npm run build, or reinstall)`);
  if (config.server.workers > 1 && cluster.isPrimary) return superviseWorkers(config.server.workers);
  performance.mark(`${STARTUP_MARK}config`);
  const app = await buildApp(config, { logger: true });
  performance.mark(`${STARTUP_MARK}app`);
  for (const warning of warnings) app.log.warn(warning);
  let grpc: GrpcServer | undefined;
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    const { shutdownTimeoutMs } = config.server;
    app.log.info(`${signal} received: finishing in-flight requests (at most ${shutdownTimeoutMs} ms)`);
    setTimeout(() => {
      app.log.error(`requests still open after server.shutdown_timeout (${shutdownTimeoutMs} ms): exiting anyway`);
      process.exit(1);
    }, shutdownTimeoutMs).unref();
    // Keep-alive connections that go idle after their last response are closed at once, so the
    // process does not wait out the keep-alive timeout.
    setInterval(() => app.server.closeIdleConnections(), 50).unref();
    Promise.all([grpc?.close(shutdownTimeoutMs), app.close()]).then(
      () => process.exit(0),
      (error) => {
        console.error(`ensign: shutdown failed: ${error instanceof Error ? error.message : error}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  await app.listen({
    port: config.server.port,
    host: config.server.host,
    listenTextResolver: (address) => `listening on ${address}`,
  });
  performance.mark(`${STARTUP_MARK}listen`);
  grpc = await serveGrpc(app, config);
  performance.mark(`${STARTUP_MARK}grpc`);
  const startup = startupSteps();
  if (cluster.isPrimary || cluster.worker?.id === 1)
    app.log.info({ ...startupSummary(config, packageJson.version, publicUrl(config)), startup }, 'ensign is ready');
}

/**
 * Flipt's gRPC API on `server.grpc_port` (0: none), loaded only then. A port named in the file must
 * be had; the default one may be taken by another server on the machine, which is then only logged.
 */
async function serveGrpc(app: FastifyInstance, config: Config): Promise<GrpcServer | undefined> {
  const { grpcPort, grpcPortSet, host } = config.server;
  if (grpcPort === 0) return undefined;
  const { startGrpcServer } = await import('./grpc/server.js');
  try {
    return await startGrpcServer(app.ensign, { host, port: grpcPort, protoDir: config.paths.proto, log: app.log });
  } catch (error) {
    if (grpcPortSet) throw error;
    app.log.warn(
      `gRPC not served: port ${grpcPort} is unavailable (${(error as Error).message}); set server.grpc_port`,
    );
    return undefined;
  }
}

/** The address a person would open: the listening one, with a wildcard host shown as localhost. */
function publicUrl(config: Config): string {
  const { protocol, host, port } = config.server;
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `${protocol}://${shown}:${port}`;
}

async function runMigrations(flags: FlagSettings): Promise<void> {
  const config = loadConfig(flags);
  const database = await openDatabase(config.db.url, { migrate: false });
  try {
    const applied = await migrate(database);
    console.log(
      applied.length ? `applied ${applied.length} migration(s): ${applied.join(', ')}` : 'database is up to date',
    );
  } finally {
    await database.close();
  }
}

export async function main(argv: string[]): Promise<void> {
  let parsed: ReturnType<
    typeof parseArgs<{ args: string[]; options: typeof OPTIONS; allowPositionals: true; strict: true }>
  >;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    fail(`${(error as Error).message}\n\n${USAGE}`);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(COMMAND_USAGE[positionals[0]] ?? USAGE);
    return;
  }
  if (values.version) {
    console.log(`ensign v${packageJson.version}`);
    return;
  }
  const [command = 'serve'] = positionals;
  const flags = flagSettings(values);
  try {
    switch (command) {
      case 'serve':
        return await serve(flags);
      case 'migrate':
        return await runMigrations(flags);
      case 'config': {
        const loaded = resolveConfig(flags);
        for (const warning of loaded.warnings) console.error(`ensign: warning: ${warning}`);
        console.log(loaded.describe());
        return;
      }
      case 'import': {
        const options = {
          file: positionals[1],
          stdin: values.stdin,
          skipExisting: values['skip-existing'],
          drop: values.drop,
        };
        console.error(await importCommand(loadConfig(flags), options));
        return;
      }
      case 'export': {
        const options = {
          namespaces: values.namespaces,
          allNamespaces: values['all-namespaces'],
          output: values.output,
          sortByKey: values['sort-by-key'],
        };
        await exportCommand(loadConfig(flags), options, writeToStdout);
        return;
      }
      default:
        fail(`unknown command "${command}"\n\n${USAGE}`);
    }
  } catch (error) {
    if (error instanceof ConfigError || error instanceof DatabaseOpenError || error instanceof CommandError)
      fail(error.message);
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE')
      fail(`port is already in use: ${(error as Error).message}`);
    // Anything else is unforeseen, yet a terminal gets one line too, never a stack trace.
    fail(`unexpected error: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Writes to stdout, waiting while a slow reader (a pipe) catches up. */
function writeToStdout(text: string): Promise<void> {
  return new Promise((resolve) => (process.stdout.write(text) ? resolve() : process.stdout.once('drain', resolve)));
}

function fail(message: string): never {
  console.error(`ensign: ${message}`);
  process.exit(1);
}
