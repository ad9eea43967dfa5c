import type { FastifyReply } from 'fastify';
import type { AuthSettings } from './settings.js';

/** Flipt's cookie names: the session's client token, and the login state between authorize and callback. */
export const SESSION_COOKIE = 'flipt_client_token';
export const STATE_COOKIE = 'flipt_client_state';

export function setSessionCookie(reply: FastifyReply, settings: AuthSettings, clientToken: string, expiresAt: Date) {
  reply.setCookie(SESSION_COOKIE, clientToken, {
    path: '/',
    domain: settings.session.cookieDomain,
    secure: settings.session.secure,
    httpOnly: true,
    sameSite: 'strict',
    expires: expiresAt,
  });
}

export function clearSessionCookies(reply: FastifyReply, settings: AuthSettings) {
  for (const name of [STATE_COOKIE, SESSION_COOKIE]) {
    reply.clearCookie(name, { path: '/', domain: settings.session.cookieDomain });
  }
}
