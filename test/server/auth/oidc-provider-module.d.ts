// oidc-provider ships no types; this declares the little the tests use.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface Account {
    accountId: string;
    claims(): Promise<Record<string, unknown>>;
  }

  export default class Provider {
    constructor(
      issuer: string,
      configuration: {
        clients: Record<string, unknown>[];
        ttl?: Record<string, number>;
        claims?: Record<string, string[]>;
        findAccount(ctx: unknown, id: string): Promise<Account>;
      },
    );
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
  }
}
