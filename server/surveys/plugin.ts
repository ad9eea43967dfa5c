import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyCors from '@fastify/cors';
import fastifyStatic from '@fastify/static';
import type { AppContext } from '../context.js';
import { demoEnabled } from '../config/index.js';
import { SurveyApiError, answerSurveyError, badRequest } from './errors.js';
import { SurveyStore } from './store/index.js';
import { clientRoutes } from './client.js';
import { identifiedSync } from './identified-sync.js';
import { SyncStates } from './sync.js';
import { namespaceOfEnvironment } from './store/links.js';
import { fillMissingRollups } from './store/rollups.js';
import { fileRoutes, storageRoutes } from './storage.js';
import {
  managementActionClassRoutes,
  managementResponseRoutes,
  managementSurveyRoutes,
  managementWebhookRoutes,
  requireApiKey,
} from './management.js';
import { WebhookDispatcher } from './webhooks.js';
import { assetRoutes } from './assets.js';
import { applySeed, applySeedFile } from './seed.js';
import { DEMO_SEED } from './demo.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../json-body.js';
import { allowCrossOriginUse } from '../security-headers.js';
import { RouteTable, addRoutes } from '../route-definitions.js';
import { displayRoutes } from './displays.js';
import { responseRoutes, responseUpdateRoute } from './responses.js';
import { currentV1Routes, currentV2Routes } from './current-client.js';
import { peopleRoutes } from './people.js';
import { flagAssignments } from './flag-assignments.js';
import { parseInput } from './validation.js';

/**
 * What any origin may send: the client API's headers (today's clients send `Cache-Control` when debugging),
 * the signed upload's and the management API key.
 */
const ALLOWED_HEADERS = [
  'Content-Type',
  'Cache-Control',
  'Authorization',
  'X-File-Name',
  'X-File-Type',
  'X-Survey-ID',
  'X-Signature',
  'X-Timestamp',
  'X-UUID',
  'X-Api-Key',
];

/** How long after listening the demo environment is seeded, unless a survey request asks first. */
const DEMO_SEED_DELAY_MS = 500;

/**
 * The demo page runs on the console's origin, so it may run only this server's scripts: no inline
 * script, no other origin, no data: URL, whatever its query string says. The survey renderer's
 * inline styles are allowed; the page may not be framed.
 */
const DEMO_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The survey provider: the Formbricks 1.6 client API, file storage, the management API subset, the widget
 * files and the demo page. Seeds the seed file before it serves, the demo environment a moment after it listens.
 */
export async function surveyPlugin(app: FastifyInstance, context: AppContext): Promise<void> {
  const { config } = context;
  const demo = demoEnabled(config);
  await fillMissingRollups(context.database);
  const store = new SurveyStore(context.database, context.changes, config.surveys.maxPeople);
  const syncStates = new SyncStates(store, context.changes);
  app.addHook('onClose', async () => syncStates.close());
  // An environment stays in its namespace: its key is read once, not on every identified sync.
  const namespaces = new Map<string, Promise<string>>();
  const targeting = async (environmentId: string) => {
    let namespaceKey = namespaces.get(environmentId);
    if (!namespaceKey) {
      namespaceKey = namespaceOfEnvironment(context.database, environmentId);
      namespaces.set(environmentId, namespaceKey);
      namespaceKey.catch(() => namespaces.delete(environmentId));
    }
    return context.snapshots.get(await namespaceKey);
  };
  const identified = identifiedSync(store, targeting);
  const webhooks = new WebhookDispatcher(context.database, app.log, config.surveys.webhooksAllowInternalAddresses);
  app.addHook('onReady', async () => webhooks.start());
  app.addHook('onClose', async () => webhooks.stop());
  await seedSurveys(app, store, config.surveys.seedFile, demo);

  app.setErrorHandler(answerSurveyError);
  parseBodiesAsJson(app);

  const assignments = flagAssignments(store, targeting);
  const responses = { store, assignments, webhooks, metrics: context.metrics };
  const current = { ...responses, syncStates, targeting };
  const storage = {
    uploadDir: config.surveys.uploadDir,
    signingSecret: config.surveys.signingSecret,
    uploadQuotaBytes: config.surveys.uploadQuotaBytes,
  };
  // The 1.6 client API, and today's routes that kept its version number.
  await app.register(
    async (client) => {
      await withCors(client);
      const routes = new RouteTable(client, parseInput);
      clientRoutes(routes, store, syncStates, identified);
      addRoutes(routes, [
        ...displayRoutes(store, assignments, context.metrics),
        ...responseRoutes(responses),
        ...peopleRoutes(store),
        ...currentV1Routes(current),
      ]);
      await storageRoutes(client, store, storage);
    },
    { prefix: '/api/v1/client' },
  );
  // Today's client API (docs/compatibility.md, "Today's Formbricks clients").
  await app.register(
    async (client) => {
      await withCors(client);
      addRoutes(new RouteTable(client, parseInput), [...currentV2Routes(current), responseUpdateRoute(responses)]);
      await storageRoutes(client, store, storage);
    },
    { prefix: '/api/v2/client' },
  );
  await app.register(
    async (management) => {
      await withCors(management);
      requireApiKey(management, store, {
        authenticationRequired: config.authentication.required === true,
        readOnly: context.flipt.readOnly,
      });
      addRoutes(new RouteTable(management, parseInput), [
        ...managementSurveyRoutes(store),
        ...managementActionClassRoutes(store),
        ...managementResponseRoutes(store, context.database),
        ...managementWebhookRoutes(context.database, config.surveys.webhooksAllowInternalAddresses),
      ]);
    },
    { prefix: '/api/v1/management' },
  );
  await app.register(
    async (files) => {
      await withCors(files);
      addRoutes(new RouteTable(files, parseInput), fileRoutes(store, config.surveys.uploadDir));
    },
    { prefix: '/storage' },
  );
  await app.register(async (assets) => {
    allowCrossOriginUse(assets);
    assetRoutes(new RouteTable(assets, parseInput), config.paths.widget);
  });
  if (demo) await serveDemoPage(app, config.paths.demo);
}

/**
 * Seeds the seed file before the server serves, and the demo environment (when shown) a moment after it
 * listens, or at the first survey request if that comes first.
 */
async function seedSurveys(app: FastifyInstance, store: SurveyStore, seedFile: string | undefined, demo: boolean) {
  let demoSeeded: Promise<void> | undefined;
  const seedDemo = () => (demoSeeded ??= applySeed(store, DEMO_SEED, 'demo environment'));
  if (seedFile) {
    // The file may change the demo environment, so it applies after it; its errors refuse the start.
    if (demo) await seedDemo();
    await applySeedFile(store, seedFile);
  } else if (demo) {
    // Seeded a moment after the server listens: its SQL runs on the one thread, so seeding at once
    // made the first requests (a readiness probe on /health) wait for it (bench/startup). A survey
    // request that comes first (or a test driving the app with inject()) waits for the same seeding.
    let timer: NodeJS.Timeout | undefined;
    app.addHook('onListen', (done) => {
      timer = setTimeout(
        () => seedDemo().catch((error) => app.log.error(error, 'seeding the demo environment failed')),
        DEMO_SEED_DELAY_MS,
      );
      done();
    });
    app.addHook('onClose', (_instance, done) => {
      clearTimeout(timer);
      done();
    });
    app.addHook('onRequest', seedDemo);
  }
}

function parseBodiesAsJson(app: FastifyInstance) {
  // Bodies are JSON whatever the declared type (the client sends application/json; tools sometimes do not).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
    const text = (body as string).trim();
    if (text === '') return done(null, undefined);
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
      return done(badRequest(`The request body is nested deeper than ${MAX_JSON_DEPTH} levels`), undefined);
    }
    try {
      done(null, JSON.parse(text));
    } catch {
      done(badRequest('The request body is not valid JSON'), undefined);
    }
  });
}

/** A survey API scope: usable from any origin, and its unknown routes answered in the survey APIs' shape. */
async function withCors(scope: FastifyInstance) {
  allowCrossOriginUse(scope);
  await scope.register(fastifyCors, {
    origin: '*',
    methods: ['GET', 'OPTIONS', 'PATCH', 'DELETE', 'POST', 'PUT'],
    allowedHeaders: ALLOWED_HEADERS,
    optionsSuccessStatus: 200,
    strictPreflight: false,
  });
  scope.setNotFoundHandler((request, reply) => {
    answerSurveyError(
      new SurveyApiError(404, 'not_found', `No route ${request.method} ${request.url.split('?')[0]}`),
      request,
      reply,
    );
  });
}

/** The demo page, and its files, under /demo. */
async function serveDemoPage(app: FastifyInstance, demoDir: string) {
  await app.register(fastifyStatic, {
    root: demoDir,
    prefix: '/demo/',
    decorateReply: false,
    index: false,
    setHeaders: (response) => response.header('content-security-policy', DEMO_CSP),
  });
  // With trailing slashes ignored, the static wildcard never sees "/demo/" itself; the page links its files absolutely.
  app.get('/demo', { exposeHeadRoute: true }, async (_request, reply) =>
    reply
      .header('content-security-policy', DEMO_CSP)
      .type('text/html; charset=utf-8')
      .send(await readFile(join(demoDir, 'index.html'))),
  );
}
