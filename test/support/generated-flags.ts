/**
 * A generated set of flags and contexts, the same for every test that compares two ways of
 * evaluating (the Flipt providers against the OFREP ones): seeded, so that a failure names a set
 * that can be made again.
 */

export type Post = (path: string, body: unknown) => Promise<{ id: string }>;

export interface GeneratedFlags {
  variantFlags: string[];
  booleanFlags: string[];
  contexts: Record<string, string>[];
}

const PLANS = ['free', 'pro', 'team'] as const;
const COUNTRIES = ['fr', 'de', 'us'] as const;

function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  return { next, pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] };
}

/** Creates the flags in the default namespace through the management API (`post` takes a path under `/api/v1/namespaces/default`). */
export async function createGeneratedFlags(
  post: Post,
  { seed, variants, booleans, contexts }: { seed: number; variants: number; booleans: number; contexts: number },
): Promise<GeneratedFlags> {
  const random = seededRandom(seed);
  const segment = async (key: string, property?: string, value?: string) => {
    await post('/segments', { key, name: key, matchType: property ? 'ALL_MATCH_TYPE' : 'ANY_MATCH_TYPE' });
    if (property) {
      await post(`/segments/${key}/constraints`, { type: 'STRING_COMPARISON_TYPE', property, operator: 'eq', value });
    }
  };
  for (const plan of PLANS) await segment(`plan-${plan}`, 'plan', plan);
  for (const country of COUNTRIES) await segment(`country-${country}`, 'country', country);
  await segment('everyone');
  const segments = [...PLANS.map((p) => `plan-${p}`), ...COUNTRIES.map((c) => `country-${c}`), 'everyone'];

  const variantFlags: string[] = [];
  for (let i = 0; i < variants; i++) {
    const key = `variant-${i}`;
    await post('/flags', { key, name: key, type: 'VARIANT_FLAG_TYPE', enabled: random.next() > 0.15 });
    const ids: string[] = [];
    for (const name of ['a', 'b']) ids.push((await post(`/flags/${key}/variants`, { key: `${key}-${name}` })).id);
    for (let rank = 1; rank <= 1 + Math.floor(random.next() * 3); rank++) {
      const rule = await post(`/flags/${key}/rules`, { segmentKey: random.pick(segments), rank });
      const first = Math.floor(random.next() * 100);
      await post(`/flags/${key}/rules/${rule.id}/distributions`, { variantId: ids[0], rollout: first });
      await post(`/flags/${key}/rules/${rule.id}/distributions`, { variantId: ids[1], rollout: 100 - first });
    }
    variantFlags.push(key);
  }
  const booleanFlags: string[] = [];
  for (let i = 0; i < booleans; i++) {
    const key = `boolean-${i}`;
    await post('/flags', { key, name: key, type: 'BOOLEAN_FLAG_TYPE', enabled: random.next() > 0.3 });
    await post(`/flags/${key}/rollouts`, {
      rank: 1,
      segment: { segmentKey: random.pick(segments), value: random.next() > 0.5 },
    });
    await post(`/flags/${key}/rollouts`, {
      rank: 2,
      threshold: { percentage: Math.floor(random.next() * 100), value: random.next() > 0.5 },
    });
    booleanFlags.push(key);
  }
  return {
    variantFlags,
    booleanFlags,
    contexts: Array.from({ length: contexts }, (_, i) => ({
      targetingKey: `user-${i}`,
      plan: random.pick(PLANS),
      country: random.pick(COUNTRIES),
    })),
  };
}
