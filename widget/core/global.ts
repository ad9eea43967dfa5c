import { chunkUrl, setChunkImport } from './chunk.js';
import formbricks, { startChunk } from './index.js';

// The IIFE build defines window.formbricks, as the @formbricks/js UMD build does.
(window as unknown as { formbricks: typeof formbricks }).formbricks = formbricks;

// document.currentScript is only set while this script evaluates: read now. import() works from a
// classic script too; the chunk is one ES module for both builds.
const loaderUrl = (document.currentScript as HTMLScriptElement | null)?.src;
setChunkImport((apiHost) => import(chunkUrl(loaderUrl, apiHost)).then(startChunk));
