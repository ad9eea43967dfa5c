import * as v from 'valibot';
import { defineSection, opt } from './section.js';

/** Flipt sections Ensign has no behaviour for: a file that sets one is refused, naming it. */
export const fliptOnlySections = [
  defineSection({
    key: 'authorization',
    schema: v.unknown(),
    refused: { authorization: 'policy-based authorization is not implemented' },
  }),
  // Flipt v1.61's keys, so that each refused one is named, in the file and as a FLIPT_CACHE_* variable.
  // `enabled: false` (Flipt's default) says what Ensign does anyway.
  defineSection({
    key: 'cache',
    schema: v.strictObject({
      enabled: opt(v.literal(false, 'must be false: evaluations always run on in-memory snapshots')),
      backend: opt(v.unknown()),
      ttl: opt(v.unknown()),
      memory: opt(v.unknown()),
      redis: opt(v.unknown()),
    }),
    refused: {
      'cache.redis.prefix': 'Ensign has no Redis cache: evaluations always run on in-memory snapshots',
      'cache.redis.mode': 'Ensign has no Redis cache, single or cluster: evaluations always run on in-memory snapshots',
      'cache.redis': 'Ensign has no Redis cache: evaluations always run on in-memory snapshots',
      'cache.backend': 'evaluations always run on in-memory snapshots',
      'cache.ttl': 'evaluations always run on in-memory snapshots',
      'cache.memory': 'evaluations always run on in-memory snapshots',
    },
  }),
  defineSection({ key: 'cloud', schema: v.unknown(), refused: { cloud: 'Flipt Cloud is not supported' } }),
  defineSection({
    key: 'diagnostics',
    schema: v.unknown(),
    refused: { diagnostics: 'profiling endpoints are not served' },
  }),
  defineSection({ key: 'experimental', schema: v.unknown(), refused: { experimental: 'no experimental features' } }),
];
