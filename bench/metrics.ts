// What counting one evaluation costs in Prometheus metrics, in one process with no HTTP around it:
// Flipt's evaluation series, the HTTP duration histogram and the snapshot hit counter, as the hot
// path records them for each request, 1,000,000 times per round. bench/http shows the same cost
// against a whole request (metrics on versus off).
import { Metrics } from '../server/metrics.js';

const COUNT = 1_000_000;
const ROUNDS = 5;
const metrics = new Metrics();
const outcome = {
  match: true,
  reason: 'MATCH_EVALUATION_REASON',
  value: 'variant_002',
  type: 'variant' as const,
  segmentKeys: [],
};
const perRound: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const started = performance.now();
  for (let i = 0; i < COUNT; i++) {
    metrics.evaluated('default', 'flag_001', { ...outcome }, 0.03);
    metrics.answered('POST', '/evaluate/v1/variant', 200, 0.0004);
    metrics.snapshots.hit.inc();
  }
  perRound.push(((performance.now() - started) * 1e6) / COUNT);
}
const text = await metrics.registry.metrics();
if (!text.includes(`flipt_evaluations_requests_total{flag="flag_001",namespace="default"} ${ROUNDS * COUNT}`))
  throw new Error('the evaluations were not all counted');
const sorted = [...perRound].sort((a, b) => a - b);
console.log(
  `metrics per evaluation: median ${sorted[Math.floor(ROUNDS / 2)].toFixed(0)} ns, best ${sorted[0].toFixed(0)} ns (${ROUNDS} rounds of ${COUNT.toLocaleString('en-US')})`,
);
