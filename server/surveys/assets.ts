import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyReply } from 'fastify';
import type { RouteTable } from '../route-definitions.js';
import * as v from 'valibot';
import { notFound } from './errors.js';
import { cuidString } from './validation.js';

/** The built widget files, by the names they are served under. */
const LOADER = 'formbricks.js';
const RENDERER = 'surveys.js';
/** The loader's lazily imported part (an ES module), which the loader resolves next to its own URL. */
const SURVEY_CHUNK = 'formbricks-survey.mjs';
const JS_FILES: Record<string, string> = {
  'formbricks.js': LOADER,
  // The name of @formbricks/js's UMD build on a Formbricks server, kept for snippets that use it.
  'formbricks.umd.cjs': LOADER,
  'surveys.js': RENDERER,
  // The renderer with today's face (`renderSurvey`), where today's Formbricks SDKs load it from.
  'surveys.umd.cjs': 'surveys-current.js',
  [SURVEY_CHUNK]: SURVEY_CHUNK,
};

const assetQuery = v.object({ module: v.optional(v.string()), environmentId: v.optional(cuidString) });

async function sendScript(reply: FastifyReply, widgetDir: string, file: string, suffix = '') {
  let body: Buffer;
  try {
    body = await readFile(join(widgetDir, file));
  } catch {
    throw notFound('Script', file);
  }
  if (suffix) body = Buffer.concat([body, Buffer.from(suffix)]);
  return reply
    .type('application/javascript; charset=utf-8')
    .header('cache-control', 'no-cache')
    .header('access-control-allow-origin', '*')
    .send(body);
}

/**
 * `/api/js?module=js|surveys[&environmentId=]` (where a Formbricks 1.6 server serves its bundles, and where
 * the loader fetches the renderer from) and `/js/{file}`: the built loader, its survey chunk and the renderer,
 * read at request time so a rebuild shows up without a restart. The chunk is also at `/api/formbricks-survey.mjs`,
 * next to `/api/js?module=js`.
 */
export function assetRoutes(routes: RouteTable, widgetDir: string): void {
  routes.add({
    method: 'GET',
    url: '/api/js',
    exposeHeadRoute: true,
    query: assetQuery,
    handler: async ({ query: { module = 'js', environmentId } }, request, reply) => {
      if (module !== 'js' && module !== 'surveys') throw notFound('Module', module);
      if (module === 'surveys') return sendScript(reply, widgetDir, RENDERER);
      // As on a Formbricks server, naming an environment makes the loader initialise itself against this host.
      const init = environmentId
        ? `\n;window.formbricks.init(${JSON.stringify({ environmentId, apiHost: `${request.protocol}://${request.host}` })});\n`
        : '';
      return sendScript(reply, widgetDir, LOADER, init);
    },
  });
  routes.add({
    method: 'GET',
    url: `/api/${SURVEY_CHUNK}`,
    exposeHeadRoute: true,
    handler: async (_input, _request, reply) => sendScript(reply, widgetDir, SURVEY_CHUNK),
  });
  routes.add({
    method: 'GET',
    url: '/js/:file',
    exposeHeadRoute: true,
    params: v.object({ file: v.string() }),
    handler: async ({ params: { file } }, _request, reply) => {
      const target = JS_FILES[file];
      if (!target) throw notFound('Script', file);
      return sendScript(reply, widgetDir, target);
    },
  });
}
