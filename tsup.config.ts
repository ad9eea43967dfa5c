import { execSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { defineConfig, type Options } from 'tsup';

type Plugin = NonNullable<Options['esbuildPlugins']>[number];

function gitCommit(): string {
  try {
    return execSync('git rev-parse HEAD', { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return '';
  }
}

const build = {
  __ENSIGN_COMMIT__: JSON.stringify(gitCommit()),
  __ENSIGN_BUILD_DATE__: JSON.stringify(new Date().toISOString().replace(/\.\d+Z$/, 'Z')),
};

// The loader's internal property names end in `_` (widget/core/log.ts `flags`): shortened in its builds.
// No wire, public or local-storage name of the loader ends in `_`.
const loaderOptions = (options: { mangleProps?: RegExp }): void => {
  options.mangleProps = /_$/;
};

// The ESM loader's `import('./survey.js')` (widget/core/module.ts) stays an import of the built chunk.
const surveyChunkExternal: Plugin = {
  name: 'survey-chunk-external',
  setup(build) {
    build.onResolve({ filter: /^\.\/survey\.js$/ }, () => ({ path: './formbricks-survey.mjs', external: true }));
  },
};

// The server's dependencies are bundled into dist/cli.js: Node then reads one file instead of about
// 900 (resolving each), which halves the cold start (bench/startup). Left out: libsql's native addon
// (its JavaScript requires it by platform at run time), pg's optional native binding, and OpenTelemetry's SDK, which
// tracing imports only when enabled. OpenTelemetry's API is bundled: prom-client requires it at load
// (loading its 44 files from node_modules was a tenth of the start-up CPU time, bench/startup), and
// the SDK's own copy shares its global registrations. CommonJS dependencies call require(): the banner
// gives them one. Fastify's JSON Schema compilers are left out too: Ensign never builds them (app.ts). The
// gRPC packages load their own .proto files from beside their modules, and are imported only when gRPC starts.
const SERVER_EXTERNALS =
  '(@libsql/(linux|darwin|win32)-.*|pg-native|@opentelemetry/(?!api$).*|@fastify/ajv-compiler|@fastify/fast-json-stringify-compiler|@grpc/.*|protobufjs)';
const requireBanner =
  "import { createRequire as __ensignCreateRequire } from 'node:module'; const require = __ensignCreateRequire(import.meta.url);";

// @libsql/kysely-libsql imports its own, older @libsql/client in full (remote protocols and
// WebSockets included) although Ensign hands it a client: it gets the local-file client Ensign uses.
const localLibsqlClient: Plugin = {
  name: 'local-libsql-client',
  setup(build) {
    const path = createRequire(import.meta.url).resolve('@libsql/client/sqlite3');
    build.onResolve({ filter: /^@libsql\/client$/ }, (args) =>
      args.importer.includes('kysely-libsql') ? { path } : undefined,
    );
  },
};

// @fastify/static requires glob at load, but calls it only to list a folder for `wildcard: false`, which
// Ensign never sets (server/console-files.ts): evaluating glob was a twentieth of the start-up CPU time
// (bench/startup). Its bundled stand-in fails with a message saying so, should that option ever be set.
const noGlobForStatic: Plugin = {
  name: 'no-glob-for-static',
  setup(build) {
    build.onResolve({ filter: /^glob$/ }, (args) =>
      args.importer.includes('@fastify/static') ? { path: 'glob', namespace: 'no-glob' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'no-glob' }, () => ({
      contents:
        "exports.glob = () => { throw new Error('@fastify/static wildcard: false needs glob, left out of dist/cli.js (tsup.config.ts)'); };",
      loader: 'js',
    }));
  },
};

// libsql finds its native addon's package by platform through @neon-rs/load, which tells glibc from musl
// by building a whole process.report: a twentieth of the start-up CPU time (bench/startup). Its stand-in
// asks detect-libc, which libsql itself loads and which reads /usr/bin/ldd first (a report only if that
// says nothing); other platforms and `load` go to @neon-rs/load.
const libcWithoutProcessReport: Plugin = {
  name: 'libc-without-process-report',
  setup(build) {
    build.onResolve({ filter: /^@neon-rs\/load$/ }, (args) =>
      args.importer.includes('libsql')
        ? { path: 'neon-load', namespace: 'libc', pluginData: args.resolveDir }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'libc' }, (args) => ({
      contents: `const neon = require('@neon-rs/load/dist/index.js');
const { familySync, MUSL } = require('detect-libc');
exports.load = neon.load;
exports.currentTarget = () =>
  process.platform === 'linux' && (process.arch === 'x64' || process.arch === 'arm64')
    ? \`linux-\${process.arch}-\${familySync() === MUSL ? 'musl' : 'gnu'}\`
    : neon.currentTarget();`,
      loader: 'js',
      resolveDir: args.pluginData,
    }));
  },
};

/**
 * V8's compile hint (docs/decisions.md): every function of the script is compiled as it loads, rather than
 * lazily at its first call, which for the loader and its chunk is the first survey's opening.
 */
const COMPILE_ALL_ON_LOAD = { js: '//# allFunctionsCalledOnLoad' };

/** A build of the survey loader or its chunk into dist/widget: minified, internal names shortened, compiled on load. */
function loaderBuild(entry: Record<string, string>, format: 'iife' | 'esm', esbuildPlugins: Plugin[] = []): Options {
  return {
    entry,
    banner: COMPILE_ALL_ON_LOAD,
    outDir: 'dist/widget',
    format: [format],
    platform: 'browser',
    // es2020 keeps ?. and ?? as written: about 170 bytes less gzipped than es2019
    target: 'es2020',
    minify: true,
    clean: false,
    esbuildOptions: loaderOptions,
    esbuildPlugins,
    outExtension: () => ({ js: format === 'iife' ? '.js' : '.mjs' }),
  };
}

/** A build of the survey renderer into dist/widget: an IIFE defining window.formbricksSurveys, Preact bundled in. */
function rendererBuild(entry: Record<string, string>): Options {
  return {
    entry,
    outDir: 'dist/widget',
    format: ['iife'],
    platform: 'browser',
    target: 'es2019',
    minify: true,
    clean: false,
    noExternal: [/.*/],
    esbuildOptions(options) {
      options.jsx = 'automatic';
      options.jsxImportSource = 'preact';
    },
    outExtension: () => ({ js: '.js' }),
  };
}

export default defineConfig([
  // The server and command line: dist/cli.js (`bin: ensign`).
  {
    entry: { cli: 'server/main.ts' },
    outDir: 'dist',
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    clean: false,
    sourcemap: true,
    // Parts only some configurations load (PostgreSQL, git storage) are chunks read when first imported.
    splitting: true,
    noExternal: [new RegExp(`^(?!${SERVER_EXTERNALS}$)`)],
    external: [new RegExp(`^${SERVER_EXTERNALS}$`)],
    banner: { js: requireBanner },
    esbuildPlugins: [localLibsqlClient, noGlobForStatic, libcWithoutProcessReport],
    esbuildOptions(options) {
      options.minifyWhitespace = true;
      options.minifySyntax = true;
    },
    define: build,
  },
  // The survey loader: an IIFE that defines window.formbricks, and an ESM module; both import the survey
  // chunk (an ES module) only when a survey shows or responses wait to be sent.
  loaderBuild({ formbricks: 'widget/core/global.ts' }, 'iife'),
  loaderBuild({ formbricks: 'widget/core/module.ts' }, 'esm', [surveyChunkExternal]),
  // The survey chunk: a factory the loader calls with its own config store and client (survey.ts).
  loaderBuild({ 'formbricks-survey': 'widget/core/survey.ts' }, 'esm'),
  // The survey renderer: an IIFE that defines window.formbricksSurveys, Preact bundled in.
  { ...rendererBuild({ surveys: 'widget/render/global.ts' }), banner: COMPILE_ALL_ON_LOAD },
  // The same renderer as today's Formbricks clients load it, /js/surveys.umd.cjs (widget/render/current.ts):
  // window.formbricksSurveys.renderSurvey with today's props, for the mobile SDKs' WebViews.
  rendererBuild({ 'surveys-current': 'widget/render/current-global.ts' }),
]);
