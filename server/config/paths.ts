import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package's own folder, the nearest holding package.json above this module (dist/cli.js once
 * built, server/config/paths.ts when the sources run): the console, widget and demo files are served
 * from there whatever the working directory, so `npm install -g` and `npx ensign` work from any folder.
 */
export const PACKAGE_ROOT = packageRoot(dirname(fileURLToPath(import.meta.url)));

function packageRoot(dir: string): string {
  if (existsSync(join(dir, 'package.json')) || dirname(dir) === dir) return dir;
  return packageRoot(dirname(dir));
}

export interface PathsConfig {
  /** Where the built console and widget files, and the demo host page, are served from; the gRPC API's .proto files. */
  paths: { console: string; widget: string; demo: string; proto: string };
}

export function packagePaths(): PathsConfig['paths'] {
  return {
    console: join(PACKAGE_ROOT, 'dist/console'),
    widget: join(PACKAGE_ROOT, 'dist/widget'),
    demo: join(PACKAGE_ROOT, 'public/demo'),
    proto: join(PACKAGE_ROOT, 'proto'),
  };
}
