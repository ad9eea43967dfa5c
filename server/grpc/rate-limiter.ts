import type { RateLimits } from '../config/index.js';
import { FliptError, GrpcCode } from '../flipt/errors.js';
import { describeWindow } from '../rate-limits.js';

export type GrpcLimitedKind = 'evaluation' | 'tokenCreation' | 'login';

/**
 * `server.rate_limits` on gRPC calls: per client address, per kind, the same counts per window as
 * the HTTP routes of the same kind (server/rate-limits.ts), in this process's memory. A kind set to
 * 0 is not limited.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly limits_: RateLimits) {}

  /** The kind's count per window; 0: not limited. */
  limits(kind: GrpcLimitedKind): number {
    return this.limits_[kind];
  }

  check(kind: GrpcLimitedKind, address: string): void {
    const max = this.limits_[kind];
    if (max === 0) return;
    const now = Date.now();
    const key = `${kind}\0${address}`;
    let window = this.windows.get(key);
    if (!window || now - window.start >= this.limits_.windowMs) {
      if (this.windows.size > 10_000) this.forgetEnded(now);
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count++;
    if (window.count > max) {
      const retry = Math.ceil((window.start + this.limits_.windowMs - now) / 1000);
      throw new FliptError(
        GrpcCode.ResourceExhausted,
        `too many requests from this address: at most ${max} per ${describeWindow(this.limits_.windowMs)}, retry in ${retry} seconds`,
      );
    }
  }

  private forgetEnded(now: number): void {
    for (const [key, window] of this.windows) {
      if (now - window.start >= this.limits_.windowMs) this.windows.delete(key);
    }
  }
}
