// The budgets the benches check with verdicts.ts, in one place. (The load benches, http,
// grpc and sync, still state theirs beside their figures.)
export const BUDGETS = {
  /** Cold start with gRPC on, fresh and migrated database: at most this many times a bare node:http start. */
  startupRatioToBare: 3,
  /** Evaluation of a 3,000-flag namespace while 4 writers add flags to it, or an import runs into it: p99 (ms). */
  evaluationUnderWritesP99Ms: 20,
  /** ... and no evaluation slower than this (ms). */
  evaluationUnderWritesMaxMs: 150,
} as const;
