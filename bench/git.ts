// Git storage: how long a push takes to reach evaluations (poll_interval 1 s, median of 5), and how
// long a repository of 10,000 flags takes to load: at start (fetch and load), as the followed ref
// moves, and as a `?reference=` tag asked for on demand. Smart HTTP on loopback (test/support/git-server.ts).
import { rmSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../server/app.js';
import { defaultConfig, type Config } from '../server/config/index.js';
import { gitStorageFor, startGitRemote, type GitRemote } from '../test/support/git-server.js';
import { generateFeatures } from './support/features.js';

const ROUNDS = 5;
const LARGE = 10_000;

const booleanFlag = (enabled: boolean) =>
  `version: "1.3"\nnamespace: default\nflags:\n  - key: bench\n    name: Bench\n    type: BOOLEAN_FLAG_TYPE\n    enabled: ${enabled}\n`;

async function startApp(remote: GitRemote, dataDir: string) {
  const config: Config = defaultConfig();
  config.db.url = `file:${join(dataDir, 'ensign.db')}`;
  config.surveys.enabled = false;
  config.analytics.enabled = false;
  config.storage = { type: 'git', git: gitStorageFor(remote) };
  const started = performance.now();
  const app = await buildApp(config);
  await app.ready();
  return { app, startMs: performance.now() - started };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (value: number) => `${Math.round(value)} ms`;

const dataDir = mkdtempSync(join(tmpdir(), 'ensign-bench-git-'));
const remote = await startGitRemote();
try {
  remote.commit({ 'features.yml': booleanFlag(false) });
  const { app } = await startApp(remote, dataDir);
  const evaluate = async () =>
    (
      await app.inject({ method: 'POST', url: '/evaluate/v1/boolean', payload: { flagKey: 'bench', entityId: 'e' } })
    ).json().enabled as boolean;
  const delays: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const enabled = round % 2 === 1;
    remote.commit({ 'features.yml': booleanFlag(enabled) });
    const pushed = performance.now();
    while ((await evaluate()) !== enabled) await new Promise((resolve) => setTimeout(resolve, 5));
    delays.push(performance.now() - pushed);
  }
  await app.close();
  console.log(
    `push to first evaluation reflecting it: median ${ms(median(delays))} (poll_interval 1 s; rounds ${delays.map(ms).join(', ')})`,
  );

  remote.commit({ 'features.yml': generateFeatures(LARGE) });
  remote.tag('large-1');
  const large = await startApp(remote, dataDir);
  const snapshotStarted = performance.now();
  const snapshot = await large.app.inject({ method: 'GET', url: '/internal/v1/evaluation/snapshot/namespace/default' });
  const snapshotMs = performance.now() - snapshotStarted;
  if (snapshot.json().flags.length !== LARGE) throw new Error('the snapshot does not hold every flag');

  const flagCount = async (url: string) => (await large.app.inject({ method: 'GET', url })).json().flags.length;
  const servedCommit = async () => (await large.app.inject({ method: 'GET', url: '/health' })).json().detail.git.commit;
  const commit = remote.commit({ 'features.yml': generateFeatures(LARGE + 1) });
  const pushed = performance.now();
  while ((await servedCommit()) !== commit) await new Promise((resolve) => setTimeout(resolve, 20));
  const movedMs = performance.now() - pushed;
  if ((await flagCount('/api/v1/flags')) !== LARGE + 1) throw new Error('the pushed commit is not served');
  const referenceStarted = performance.now();
  const atTag = await flagCount('/api/v1/flags?reference=large-1');
  const referenceMs = performance.now() - referenceStarted;
  if (atTag !== LARGE) throw new Error('the tag does not hold every flag');
  await large.app.close();
  console.log(
    `${LARGE.toLocaleString('en-US')} flags: start (fetch and load) ${ms(large.startMs)}, first snapshot ${ms(snapshotMs)}, ` +
      `push to served ${ms(movedMs)} (poll_interval 1 s), ?reference= tag loaded on demand ${ms(referenceMs)}`,
  );
} finally {
  await remote.close();
  rmSync(dataDir, { recursive: true, force: true });
}
