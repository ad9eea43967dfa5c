// GET /api/v1/client/{environment}/in-app/sync, the widget's call on a page load with an expired state,
// under 64 connections (autocannon) against the real app holding 20 surveys, 10 action classes and
// 1,000 people (support/sync-data.ts), versus a bare node:http server answering the same bytes as the
// anonymous sync, in the same run and in alternating rounds; and the same environment with 10 of its
// 20 surveys linked to a flag's variant (an identified sync evaluates the flag for each). The identified
// syncs cycle through the 1,000 people; the conditional sync sends the ETag of the anonymous answer back
// (a 304 without body).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Options } from 'autocannon';
import {
  cpuPerRequest,
  emptyTotals,
  loadLine,
  medianP99,
  report,
  round,
  tailOverQueue,
  type Totals,
} from './support/load.js';
import { serveIfChild, startServer } from './support/servers.js';
import { PEOPLE, SYNC_ENVIRONMENT_ID, userIdOf } from './support/sync-data.js';
import { atLeast, atMost } from './support/verdicts.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 18);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const CONNECTIONS = 64;
const WARM_UP_SECONDS = 2;
const SYNC = `/api/v1/client/${SYNC_ENVIRONMENT_ID}/in-app/sync`;

if (!(await serveIfChild())) {
  console.log(`${loadLine()} at the start`);
  console.log(
    `${CONNECTIONS} connections, ${SECONDS} s on each load in ${ROUNDS} alternating rounds after ${WARM_UP_SECONDS} s of warm-up`,
  );
  const ensign = await startServer('ensign-sync', import.meta.url);
  const linked = await startServer('ensign-sync-linked', import.meta.url);
  const first = await fetch(ensign.url + SYNC);
  if (first.status !== 200) throw new Error(`anonymous sync: ${first.status} ${await first.text()}`);
  const body = Buffer.from(await first.arrayBuffer());
  const etag = first.headers.get('etag');
  const dir = mkdtempSync(join(tmpdir(), 'ensign-bench-sync-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  process.env.BENCH_BODY_FILE = join(dir, 'sync.json');
  writeFileSync(process.env.BENCH_BODY_FILE, body);
  const bare = await startServer('bare-body', import.meta.url);
  console.log(
    `anonymous sync: ${(body.length / 1024).toFixed(1)} KB, ${(JSON.parse(body.toString()) as { data: { surveys: unknown[] } }).data.surveys.length} surveys, ETag ${etag ?? 'none'}`,
  );

  let person = 0;
  const identifiedSync: Omit<Options, 'url'> & { url: string } = {
    url: SYNC,
    requests: [
      {
        setupRequest: (request) => ({
          ...request,
          path: `${SYNC}/${userIdOf(person++ % PEOPLE)}?version=1.6.5`,
        }),
      },
    ],
  };
  const loads: Record<
    string,
    { target: typeof ensign; options: Omit<Options, 'url'> & { url: string }; status?: number }
  > = {
    bare: { target: bare, options: { url: '/' } },
    anonymous: { target: ensign, options: { url: SYNC } },
    identified: { target: ensign, options: identifiedSync },
    // The same environment with 10 of its 20 surveys linked to a flag's variant.
    linked: { target: linked, options: identifiedSync },
  };
  if (etag)
    loads.conditional = { target: ensign, options: { url: SYNC, headers: { 'if-none-match': etag } }, status: 304 };
  const names = Object.keys(loads);
  const totals: Record<string, Totals> = Object.fromEntries(names.map((name) => [name, emptyTotals()]));
  const common = { connections: CONNECTIONS, method: 'GET' as const };
  for (const name of names) {
    const { target, options, status } = loads[name];
    await round(name, target, { ...common, ...options, duration: WARM_UP_SECONDS }, emptyTotals(), status);
  }
  for (let i = 0; i < ROUNDS; i++) {
    for (const name of names) {
      const { target, options, status } = loads[name];
      await round(name, target, { ...common, ...options, duration: SECONDS / ROUNDS }, totals[name], status);
    }
  }
  ensign.stop();
  linked.stop();
  bare.stop();
  const bareRate = report('bare node:http, same bytes', totals.bare);
  const anonymous = report('ensign anonymous sync', totals.anonymous);
  const identified = report('ensign identified sync', totals.identified);
  const linkedRate = report('identified, 10 surveys linked', totals.linked);
  if (totals.conditional) report('ensign anonymous sync, 304', totals.conditional);
  const percent = (rate: number) => `${((100 * rate) / bareRate).toFixed(1)}% of bare node:http`;
  console.log(
    `CPU per request: anonymous ${cpuPerRequest(totals.anonymous).toFixed(0)} µs, identified ${cpuPerRequest(totals.identified).toFixed(0)} µs, linked ${cpuPerRequest(totals.linked).toFixed(0)} µs`,
  );
  atLeast('anonymous sync', anonymous / bareRate, 0.5, percent(anonymous), 'at least 50%');
  atLeast('identified sync', identified / bareRate, 0.2, percent(identified), 'at least 20%');
  const [identifiedP99, bareP99, linkedP99] = [
    medianP99(totals.identified),
    medianP99(totals.bare),
    medianP99(totals.linked),
  ];
  // Beside the throughput budgets, a p99 against bare's p99 would be a throughput budget again (load.ts,
  // tailOverQueue): the latency budget is on the tail beyond the queue each server's throughput implies.
  const [identifiedTail, bareTail] = [
    tailOverQueue(totals.identified, CONNECTIONS),
    tailOverQueue(totals.bare, CONNECTIONS),
  ];
  atMost(
    'identified sync p99 beyond its queue',
    identifiedTail / bareTail,
    1.5,
    `p99 ${identifiedP99} ms, ${identifiedTail.toFixed(2)}x the ${((1000 * CONNECTIONS) / identified).toFixed(1)} ms its throughput implies; bare's ${bareP99} ms, ${bareTail.toFixed(2)}x`,
    "at most 1.5x bare's ratio",
  );
  atLeast(
    'identified sync with 10 linked surveys',
    linkedRate / identified,
    0.9,
    `${((100 * linkedRate) / identified).toFixed(1)}% of the unlinked throughput`,
    'at least 90%',
  );
  atMost(
    'linked sync p99',
    linkedP99 / identifiedP99,
    1.2,
    `${linkedP99} ms against ${identifiedP99} ms unlinked (median of the rounds' p99)`,
    'at most 1.2x',
  );
  console.log(`${loadLine()} at the end`);
}
