import { setChunkImport } from './chunk.js';
import { startChunk } from './index.js';

// The ESM build. A literal import() is resolved against this module's own URL (import.meta.url) in a
// browser, and an app's bundler can follow it and split the chunk out; tsup.config.ts keeps it external,
// pointing at the built chunk next to this file.
setChunkImport(() => import('./survey.js').then(startChunk));

export { VERSION, default } from './index.js';
