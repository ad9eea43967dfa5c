import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { parse } from './flipt/routes/http.js';
import { RouteTable } from './route-definitions.js';

/**
 * Serves the built console: each file at the top of its folder (index.html, the entry script and
 * style, their source maps) by a route of its own, `/` answering index.html; each sub-folder (the
 * code-split chunks) by one wildcard route. A route per chunk, about 250 with their HEAD twins, cost
 * a tenth of the start-up time (bench/startup), and so did @fastify/static's own file routes, which
 * walk the folder with glob: the top files are listed here with one readdir. A missing file is
 * answered by the scope's 404 either way.
 */
export async function serveConsole(files: FastifyInstance, root: string): Promise<void> {
  const entries = readdirSync(root, { withFileTypes: true });
  // serve: false only gives the scope reply.sendFile(), from the root.
  await files.register(fastifyStatic, { root, serve: false });
  const routes = new RouteTable(files, parse);
  for (const entry of entries.filter((entry) => entry.isFile())) {
    const urls = entry.name === 'index.html' ? ['/', '/index.html'] : [`/${entry.name}`];
    for (const url of urls) {
      routes.add({
        method: 'GET',
        url,
        exposeHeadRoute: true,
        handler: (_input, _request, reply) => reply.sendFile(entry.name),
      });
    }
  }
  for (const folder of entries.filter((entry) => entry.isDirectory())) {
    await files.register(fastifyStatic, {
      root: join(root, folder.name),
      prefix: `/${folder.name}/`,
      decorateReply: false,
    });
  }
}
