import * as v from 'valibot';
import { defineSection } from './section.js';

/** Flipt sections Ensign has no behaviour for: a file that sets one is refused, naming it. */
export const fliptOnlySections = [
  defineSection({
    key: 'authorization',
    schema: v.unknown(),
    refused: { authorization: 'policy-based authorization is not implemented' },
  }),
  defineSection({
    key: 'cache',
    schema: v.unknown(),
    refused: { cache: 'evaluations always run on in-memory snapshots' },
  }),
  defineSection({ key: 'cloud', schema: v.unknown(), refused: { cloud: 'Flipt Cloud is not supported' } }),
  defineSection({
    key: 'diagnostics',
    schema: v.unknown(),
    refused: { diagnostics: 'profiling endpoints are not served' },
  }),
  defineSection({ key: 'experimental', schema: v.unknown(), refused: { experimental: 'no experimental features' } }),
];
