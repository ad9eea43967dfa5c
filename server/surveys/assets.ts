import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { notFound } from './errors.js';

/** The built widget files, by the names they are served under. */
const LOADER = 'formbricks.js';
const RENDERER = 'surveys.js';
const JS_FILES: Record<string, string> = {
  'formbricks.js': LOADER,
  // The name of @formbricks/js's UMD build on a Formbricks server, kept for snippets that use it.
  'formbricks.umd.cjs': LOADER,
  'surveys.js': RENDERER,
};

async function sendScript(reply: FastifyReply, widgetDir: string, file: string) {
  let body: Buffer;
  try {
    body = await readFile(join(widgetDir, file));
  } catch {
    throw notFound('Script', file);
  }
  return reply
    .type('application/javascript; charset=utf-8')
    .header('cache-control', 'no-cache')
    .header('access-control-allow-origin', '*')
    .send(body);
}

/**
 * `/api/js?module=js|surveys` (where a Formbricks 1.6 server serves its bundles, and where the loader
 * fetches the renderer from) and `/js/{file}`: the built loader and renderer, read at request time so a
 * rebuild shows up without a restart.
 */
export function assetRoutes(app: FastifyInstance, widgetDir: string): void {
  app.get('/api/js', async (request, reply) => {
    const { module = 'js' } = request.query as { module?: string };
    if (module !== 'js' && module !== 'surveys') throw notFound('Module', module);
    return sendScript(reply, widgetDir, module === 'js' ? LOADER : RENDERER);
  });
  app.get('/js/:file', async (request, reply) => {
    const { file } = request.params as { file: string };
    const target = JS_FILES[file];
    if (!target) throw notFound('Script', file);
    return sendScript(reply, widgetDir, target);
  });
}
