// Evaluations per second of our engine (domain/evaluation) versus Flipt's own client engine
// (@flipt-io/flipt-client-js 0.5.1, WASM) on the same snapshot document and the same requests.
import { FliptClient } from '@flipt-io/flipt-client-js';
import {
  compileSnapshot,
  evaluateBoolean,
  evaluateVariant,
  type EvaluationRequest,
  type SnapshotConstraint,
  type SnapshotDocument,
  type SnapshotFlag,
  type SnapshotSegment,
} from '../domain/evaluation/index.js';
import { atLeast } from './support/verdicts.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);

let seed = 42;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)];

const PLANS = ['free', 'pro', 'premium', 'enterprise'];
const REGIONS = ['eu-west', 'eu-north', 'us-east', 'ap-south'];

function constraint(i: number): SnapshotConstraint {
  const id = `c${i}`;
  switch (i % 4) {
    case 0:
      return { id, type: 'STRING_CONSTRAINT_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: pick(PLANS) };
    case 1:
      return {
        id,
        type: 'STRING_CONSTRAINT_COMPARISON_TYPE',
        property: 'region',
        operator: 'isoneof',
        value: JSON.stringify(REGIONS.slice(0, 2)),
      };
    case 2:
      return {
        id,
        type: 'NUMBER_CONSTRAINT_COMPARISON_TYPE',
        property: 'seats',
        operator: 'gte',
        value: String(Math.floor(rand() * 50)),
      };
    default:
      return { id, type: 'BOOLEAN_CONSTRAINT_COMPARISON_TYPE', property: 'beta', operator: 'true', value: '' };
  }
}

const segments: SnapshotSegment[] = Array.from({ length: 10 }, (_, s) => ({
  key: `segment-${s}`,
  name: '',
  description: '',
  matchType: s % 2 ? 'ANY_SEGMENT_MATCH_TYPE' : 'ALL_SEGMENT_MATCH_TYPE',
  createdAt: null,
  updatedAt: null,
  constraints: Array.from({ length: 1 + (s % 3) }, (_, c) => constraint(s * 3 + c)),
}));

const flags: SnapshotFlag[] = [];
for (let f = 0; f < 20; f++) {
  const boolean = f % 4 === 3;
  flags.push({
    key: `flag-${f}`,
    name: `Flag ${f}`,
    description: '',
    enabled: true,
    type: boolean ? 'BOOLEAN_FLAG_TYPE' : 'VARIANT_FLAG_TYPE',
    createdAt: null,
    updatedAt: null,
    rules: boolean
      ? []
      : Array.from({ length: 3 }, (_, r) => ({
          id: `rule-${f}-${r}`,
          rank: r + 1,
          segmentOperator: 'OR_SEGMENT_OPERATOR' as const,
          segments: [pick(segments), ...(r === 2 ? [pick(segments)] : [])],
          distributions: [
            { id: '', ruleId: '', variantId: 'a', variantKey: 'a', variantAttachment: '', rollout: 30 },
            { id: '', ruleId: '', variantId: 'b', variantKey: 'b', variantAttachment: '{"x":1}', rollout: 70 },
          ],
        })),
    rollouts: boolean
      ? [
          {
            type: 'SEGMENT_ROLLOUT_TYPE',
            rank: 1,
            segment: {
              value: true,
              segmentOperator: 'AND_SEGMENT_OPERATOR',
              segments: [pick(segments), pick(segments)],
            },
          },
          { type: 'THRESHOLD_ROLLOUT_TYPE', rank: 2, threshold: { percentage: 40, value: true } },
        ]
      : [],
  });
}
const document: SnapshotDocument = { namespace: { key: 'default' }, flags };

const requests: (EvaluationRequest & { boolean: boolean })[] = Array.from({ length: 4096 }, (_, i) => {
  const flag = pick(flags);
  return {
    boolean: flag.type === 'BOOLEAN_FLAG_TYPE',
    flagKey: flag.key,
    entityId: `user-${i}`,
    context: {
      plan: pick(PLANS),
      region: pick(REGIONS),
      seats: String(Math.floor(rand() * 100)),
      beta: pick(['true', 'false']),
    },
  };
});

/** Evaluations done in `seconds` of evaluating the requests round-robin. */
function run(evaluate: (request: (typeof requests)[number]) => unknown, seconds: number): number {
  let count = 0;
  const deadline = performance.now() + seconds * 1000;
  while (performance.now() < deadline) {
    for (let i = 0; i < 1000; i++) evaluate(requests[count++ % requests.length]);
  }
  return count;
}

const compiled = compileSnapshot(document);
const client = await FliptClient.init({
  namespace: 'default',
  updateInterval: 0,
  fetcher: async () => ({ ok: true, status: 200, headers: { get: () => null }, json: async () => document }) as never,
});
const engines = {
  'ensign domain/evaluation': (r: (typeof requests)[number]) =>
    r.boolean ? evaluateBoolean(compiled, r) : evaluateVariant(compiled, r),
  'flipt-client-js 0.5.1 (WASM)': (r: (typeof requests)[number]) => {
    const request = { flagKey: r.flagKey, entityId: r.entityId, context: r.context };
    return r.boolean ? client.evaluateBoolean(request) : client.evaluateVariant(request);
  },
};

// Alternating rounds, so that load from elsewhere on the machine hits both engines alike.
const ROUNDS = 4;
const counts = new Map<string, number>();
for (const evaluate of Object.values(engines)) run(evaluate, 0.2); // warm-up
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, evaluate] of Object.entries(engines))
    counts.set(name, (counts.get(name) ?? 0) + run(evaluate, SECONDS / ROUNDS));
}
const rates = [...counts].map(([name, count]) => {
  const rate = count / SECONDS;
  console.log(`${name.padEnd(28)} ${Math.round(rate).toLocaleString('en-US').padStart(12)} evaluations/s`);
  return rate;
});
const [ours, reference] = Object.keys(engines);
const ratio = rates[0] / rates[1];
atLeast(`${ours} / ${reference}`, ratio, 25, `${ratio.toFixed(1)}x`, 'at least 25x');
