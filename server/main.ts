#!/usr/bin/env node
import module from 'node:module';

// From Node 22.1, V8's compiled code of the modules loaded after this call is cached on disk, so the
// next start skips compiling them (bench/startup); Node 20 has no such cache. Hence the command line
// is imported only after the call.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
const { main } = await import('./cli.js');

main(process.argv.slice(2)).catch((error) => {
  console.error(error);
  process.exit(1);
});
