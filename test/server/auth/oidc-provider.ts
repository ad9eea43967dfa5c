import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface LocalOidcProvider {
  issuer: string;
  /** The path of every request the provider received, in order. */
  requests: string[];
  close(): Promise<void>;
}

/**
 * A real OpenID provider (`oidc-provider`) on a free local port, with its development login and
 * consent pages: any login name signs in, and becomes the account's `sub`. An account's email is the
 * login when it contains "@", else `<login>@example.com`.
 */
export async function startOidcProvider(client: {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
}): Promise<LocalOidcProvider> {
  let handler: (request: IncomingMessage, response: ServerResponse) => void = (_request, response) => response.end();
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(new URL(request.url ?? '/', 'http://provider').pathname);
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: client.clientId,
        client_secret: client.clientSecret,
        redirect_uris: client.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'picture', 'preferred_username', 'profile'],
    },
    async findAccount(_ctx, id) {
      const login = id.split('@')[0];
      return {
        accountId: id,
        claims: async () => ({
          sub: id,
          email: id.includes('@') ? id : `${id}@example.com`,
          email_verified: true,
          name: login.charAt(0).toUpperCase() + login.slice(1),
          picture: `https://avatars.example.com/${login}.png`,
          preferred_username: login,
        }),
      };
    },
  });
  handler = provider.callback();
  return {
    issuer,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * Walks a browser's way through the provider's login and consent pages (HTTP only, with a cookie
 * jar) from the authorize URL to the redirect back to the client; returns that redirect.
 */
export async function signInAt(authorizeUrl: string, login: string, redirectPrefix: string): Promise<URL> {
  const jar = new Map<string, string>();
  const send = async (url: string, form?: Record<string, string>) => {
    const response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(form && { 'content-type': 'application/x-www-form-urlencoded' }),
      },
      body: form && new URLSearchParams(form).toString(),
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const index = pair.indexOf('=');
      jar.set(pair.slice(0, index), pair.slice(index + 1));
    }
    return response;
  };
  let url = authorizeUrl;
  for (let step = 0; step < 12; step++) {
    const response = await send(url);
    const location = response.headers.get('location');
    if (!location)
      throw new Error(`the provider answered ${response.status} at ${url}: ${(await response.text()).slice(0, 300)}`);
    const next = new URL(location, url);
    if (next.href.startsWith(redirectPrefix)) return next;
    if (/\/interaction\/[^/]+$/.test(next.pathname)) {
      const page = await (await send(next.href)).text();
      const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1];
      const submitted = await send(
        next.href,
        prompt === 'login' ? { prompt, login, password: 'any' } : { prompt: 'consent' },
      );
      url = new URL(submitted.headers.get('location')!, next).href;
    } else {
      url = next.href;
    }
  }
  throw new Error('the provider did not redirect back to the client');
}
