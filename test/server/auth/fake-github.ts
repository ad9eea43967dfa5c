import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeUser {
  login: string;
  id: number;
  name: string | null;
  email: string | null;
  avatar_url: string;
  orgs: string[];
  /** `org/team-slug` */
  teams?: string[];
}

/**
 * A stand-in for github.com and api.github.com (GitHub itself cannot be reached here): the OAuth
 * authorize page approves at once for the user set in `signedIn`, the token endpoint trades codes,
 * and the API answers /user, /user/orgs and /user/teams for the bearer of an access token.
 */
export async function startFakeGithub(client: { id: string; secret: string }) {
  const codes = new Map<string, FakeUser>();
  const tokens = new Map<string, FakeUser>();
  const state = { signedIn: undefined as FakeUser | undefined };
  let next = 0;
  const server: Server = createServer(async (request, response) => {
    const url = new URL(request.url!, 'http://github.local');
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (url.pathname === '/login/oauth/authorize') {
      const code = `code-${++next}`;
      codes.set(code, state.signedIn!);
      const back = new URL(url.searchParams.get('redirect_uri')!);
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state')!);
      response.writeHead(302, { location: back.href });
      return response.end();
    }
    if (url.pathname === '/login/oauth/access_token' && request.method === 'POST') {
      let text = '';
      for await (const chunk of request) text += chunk;
      const form = new URLSearchParams(text);
      const user = codes.get(form.get('code') ?? '');
      if (form.get('client_id') !== client.id || form.get('client_secret') !== client.secret || !user) {
        return json(200, {
          error: 'bad_verification_code',
          error_description: 'The code passed is incorrect or expired.',
        });
      }
      codes.delete(form.get('code')!);
      const token = `gho_${++next}`;
      tokens.set(token, user);
      return json(200, { access_token: token, token_type: 'bearer', scope: 'user:email' });
    }
    const user = tokens.get((request.headers.authorization ?? '').replace(/^Bearer /, ''));
    if (!user) return json(401, { message: 'Bad credentials' });
    if (url.pathname === '/api/user') {
      const { orgs: _orgs, teams: _teams, ...profile } = user;
      return json(200, profile);
    }
    if (url.pathname === '/api/user/orgs')
      return json(
        200,
        user.orgs.map((login) => ({ login, id: 1 })),
      );
    if (url.pathname === '/api/user/teams') {
      return json(
        200,
        (user.teams ?? []).map((team) => ({ slug: team.split('/')[1], organization: { login: team.split('/')[0] } })),
      );
    }
    json(404, { message: 'Not Found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, state, close: () => new Promise((resolve) => server.close(resolve)) };
}

export type FakeGithub = Awaited<ReturnType<typeof startFakeGithub>>;
