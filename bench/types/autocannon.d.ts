// The part of autocannon's API the benchmarks use (the package ships no types).
declare module 'autocannon' {
  export interface Request {
    path?: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
  }
  export interface Options {
    url: string;
    method?: 'GET' | 'POST';
    body?: string;
    headers?: Record<string, string>;
    connections?: number;
    duration?: number;
    /** Requests each connection sends in turn; `setupRequest` may rewrite each one before it goes. */
    requests?: { setupRequest?: (request: Request) => Request }[];
  }
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
    total: number;
  }
  export interface Result {
    requests: Histogram;
    latency: Histogram;
    non2xx: number;
    errors: number;
    statusCodeStats: Record<string, { count: number }>;
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
