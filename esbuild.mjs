// Builds the console (src/main.tsx) into dist/console: code splitting, hashed names, CSS and index.html.
// `node esbuild.mjs --watch` rebuilds on change for development.
import { mkdir, readFile, rm, writeFile, copyFile } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import * as esbuild from 'esbuild';

const outdir = 'dist/console';
const watch = process.argv.includes('--watch');

/**
 * Writes index.html from public/, pointing at the hashed entry script and stylesheet, with a
 * modulepreload link for each chunk the entry imports: the browser fetches them alongside the entry
 * rather than after it has parsed it.
 */
const writeIndexHtml = {
  name: 'index-html',
  setup(build) {
    build.onEnd(async (result) => {
      if (result.errors.length || !result.metafile) return;
      const outputs = Object.entries(result.metafile.outputs);
      const [entry] = outputs.find(([, meta]) => meta.entryPoint === 'src/main.tsx') ?? [];
      const css = entry && result.metafile.outputs[entry].cssBundle;
      const href = (file) => '/' + relative(outdir, file).split('\\').join('/');
      const preloads = result.metafile.outputs[entry].imports
        .filter((chunk) => chunk.kind === 'import-statement')
        .map((chunk) => `<link rel="modulepreload" href="${href(chunk.path)}" />`);
      const template = await readFile('public/index.html', 'utf8');
      const html = template
        .replace('<!-- styles -->', css ? `<link rel="stylesheet" href="${href(css)}" />` : '')
        .replace(
          '<!-- scripts -->',
          [...preloads, `<script type="module" src="${href(entry)}"></script>`].join('\n    '),
        );
      await writeFile(join(outdir, 'index.html'), html);
      await copyFile('public/favicon.svg', join(outdir, 'favicon.svg'));
    });
  },
};

const options = {
  entryPoints: ['src/main.tsx'],
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  target: ['es2022'],
  minify: !watch,
  sourcemap: watch ? 'inline' : 'linked',
  metafile: true,
  entryNames: '[name]-[hash]',
  chunkNames: 'chunks/[name]-[hash]',
  assetNames: 'assets/[name]-[hash]',
  jsx: 'automatic',
  loader: { '.svg': 'file', '.woff2': 'file' },
  define: { 'process.env.NODE_ENV': JSON.stringify(watch ? 'development' : 'production') },
  // wouter imports useSyncExternalStore through its shim for React 17, which on React 18 and later only
  // hands over React's own: React's, without the shim's code on the first page.
  alias: { 'use-sync-external-store/shim/index.js': 'react' },
  legalComments: 'none',
  logLevel: 'info',
  plugins: [writeIndexHtml],
};

// A build (then tsup) starts from an empty dist/: the server's hashed chunks of earlier builds would
// otherwise stay beside the new ones and be packed. Watching rebuilds the console alone.
await rm(watch ? outdir : 'dist', { recursive: true, force: true });
await mkdir(outdir, { recursive: true });
if (watch) {
  const context = await esbuild.context(options);
  await context.watch();
  console.log(`watching src/ -> ${basename(outdir)}`);
} else {
  await esbuild.build(options);
}
