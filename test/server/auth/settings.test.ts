import { describe, expect, it } from 'vitest';
import { resolveAuthSettings } from '../../../server/auth/settings.js';

describe('authentication settings', () => {
  it("applies Flipt's defaults: not required, 24 h sessions, 10 min login state, GitHub addresses", () => {
    const settings = resolveAuthSettings({});
    expect(settings.required).toBe(false);
    expect(settings.session.tokenLifetimeMs).toBe(24 * 3_600_000);
    expect(settings.session.stateLifetimeMs).toBe(10 * 60_000);
    expect(settings.github.serverUrl).toBe('https://github.com');
    expect(settings.github.apiUrl).toBe('https://api.github.com');
  });

  it('reads durations in Go syntax and as nanoseconds', () => {
    const settings = resolveAuthSettings({ session: { token_lifetime: '1h30m', state_lifetime: 120_000_000_000 } });
    expect(settings.session.tokenLifetimeMs).toBe(90 * 60_000);
    expect(settings.session.stateLifetimeMs).toBe(120_000);
  });

  it('keeps only the host of the session domain, and leaves localhost and IP addresses host-only', () => {
    const domain = (value: string) => resolveAuthSettings({ session: { domain: value } }).session.cookieDomain;
    expect(domain('https://flags.example.com:8443')).toBe('flags.example.com');
    expect(domain('localhost:8080')).toBeUndefined();
    expect(domain('127.0.0.1')).toBeUndefined();
  });

  it('reads CSRF trusted origins as Go takes them (scheme and host), and an OIDC nonce when set', () => {
    const origins = (trusted_origins: string[]) =>
      resolveAuthSettings({ session: { csrf: { trusted_origins } } }).session.csrfTrustedOrigins;
    expect(origins(['https://a.example', 'http://localhost:3000'])).toEqual([
      'https://a.example',
      'http://localhost:3000',
    ]);
    expect(resolveAuthSettings({}).session.csrfTrustedOrigins).toEqual([]);
    for (const bad of ['a.example', 'https://a.example/', 'https://a.example/console', 'https://a.example?x', '']) {
      expect(() => origins(['https://ok.example', bad]), bad).toThrow(
        `authentication.session.csrf.trusted_origins[1]: "${bad}" is not an origin: write a scheme and a host, such as https://flags.example.com`,
      );
    }
    const provider = (nonce?: string) =>
      resolveAuthSettings({ methods: { oidc: { providers: { p: { nonce } } } } }).oidc.providers.p.nonce;
    expect(provider('static')).toBe('static');
    // Empty or unset: a fresh random nonce per login (Flipt would send "static").
    expect(provider('')).toBeUndefined();
    expect(provider()).toBeUndefined();
  });

  it.each([
    [{ methods: { jwt: { enabled: true } } }, 'authentication.methods.jwt needs one of jwks_url or public_key_file'],
    [
      { methods: { github: { enabled: true, client_id: 'a', client_secret: 'b', redirect_address: 'http://x' } } },
      'authentication.session.domain is required when a session method (oidc, github) is enabled',
    ],
    [
      { session: { domain: 'x' }, methods: { github: { enabled: true, client_id: 'a' } } },
      'authentication.methods.github.client_secret is required',
    ],
    [
      { session: { domain: 'x' }, methods: { oidc: { enabled: true, providers: { google: { client_id: 'a' } } } } },
      'authentication.methods.oidc.providers.google.issuer_url is required',
    ],
    [
      { methods: { github: { allowed_organizations: ['a'], allowed_teams: { b: ['x'] } } } },
      'authentication.methods.github.allowed_teams.b: the organization must also be in allowed_organizations',
    ],
    [
      { session: { token_lifetime: 'a day' } },
      'authentication.session.token_lifetime must be a duration such as "30s", "10m" or "24h" (got "a day")',
    ],
    [
      { methods: { oidc: { email_matches: ['(unclosed'] } } },
      'authentication.methods.oidc.email_matches.0 is not a valid regular expression',
    ],
    [
      { methods: { jwt: { enabled: true, public_key_file: '/nonexistent/key.pem' } } },
      'authentication.methods.jwt.public_key_file: cannot read /nonexistent/key.pem: ENOENT',
    ],
  ])('refuses %j with a message naming the key', (section, message) => {
    expect(() => resolveAuthSettings(section)).toThrow(message);
  });
});
