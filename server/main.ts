#!/usr/bin/env node
import module from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';

// From Node 22.1, V8's compiled code of the modules loaded after this call is cached on disk, so the
// next start skips compiling them (bench/startup); Node 20 has no such cache. Hence the command line
// is imported only after the call. The cache goes to NODE_COMPILE_CACHE when set (Node then enables it
// itself, and this call changes nothing), else to the user's own cache folder: not beside an installed
// package, which may be read-only or shared, nor to Node's default in the shared temporary folder, where
// another user could have put files of their own first. Where the folder cannot be written, Node starts
// without a cache. NODE_DISABLE_COMPILE_CACHE=1 turns it off.
(module as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache?.(
  join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'ensign', 'compile-cache'),
);
const { main } = await import('./cli.js');

main(process.argv.slice(2)).catch((error) => {
  console.error(error);
  process.exit(1);
});
