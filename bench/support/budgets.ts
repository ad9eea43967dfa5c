// The budgets the benches check with verdicts.ts, in one place. (The load benches, http,
// grpc and sync, still state theirs beside their figures.)
export const BUDGETS = {
  /** Cold start with gRPC on, fresh and migrated database: at most this many times a bare node:http start. */
  startupRatioToBare: 3,
} as const;
