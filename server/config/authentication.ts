import * as v from 'valibot';
import { duration } from './duration.js';
import { bool, defineSection, opt, str, strList } from './section.js';

const oidcProvider = v.strictObject({
  issuer_url: opt(str),
  client_id: opt(str),
  client_secret: opt(str),
  redirect_address: opt(str),
  scopes: opt(strList),
  use_pkce: opt(bool),
  nonce: opt(str),
});

const cleanup = v.strictObject({ interval: opt(duration), grace_period: opt(duration) });

const schema = v.strictObject({
  required: opt(bool),
  exclude: opt(v.strictObject({ management: opt(bool), metadata: opt(bool), evaluation: opt(bool), ofrep: opt(bool) })),
  session: opt(
    v.strictObject({
      domain: opt(str),
      secure: opt(bool),
      token_lifetime: opt(duration),
      state_lifetime: opt(duration),
      csrf: opt(v.strictObject({ key: opt(str), secure: opt(bool), trusted_origins: opt(strList) })),
    }),
  ),
  methods: opt(
    v.strictObject({
      token: opt(
        v.strictObject({
          enabled: opt(bool),
          cleanup: opt(cleanup),
          bootstrap: opt(v.strictObject({ token: opt(str), expiration: opt(duration) })),
        }),
      ),
      oidc: opt(
        v.strictObject({
          enabled: opt(bool),
          cleanup: opt(cleanup),
          providers: opt(v.record(v.string(), oidcProvider)),
          email_matches: opt(strList),
        }),
      ),
      github: opt(
        v.strictObject({
          enabled: opt(bool),
          cleanup: opt(cleanup),
          client_id: opt(str),
          client_secret: opt(str),
          redirect_address: opt(str),
          scopes: opt(strList),
          server_url: opt(str),
          api_url: opt(str),
          allowed_organizations: opt(strList),
          allowed_teams: opt(v.record(v.string(), strList)),
        }),
      ),
      jwt: opt(
        v.strictObject({
          enabled: opt(bool),
          jwks_url: opt(str),
          public_key_file: opt(str),
          validate_claims: opt(v.strictObject({ issuer: opt(str), subject: opt(str), audiences: opt(strList) })),
        }),
      ),
      kubernetes: opt(
        v.strictObject({
          enabled: opt(bool),
          cleanup: opt(cleanup),
          discovery_url: opt(str),
          ca_path: opt(str),
          service_account_token_path: opt(str),
          audiences: opt(strList),
        }),
      ),
      cloud: opt(v.record(v.string(), v.unknown())),
    }),
  ),
});

/** The `authentication` section as written; server/auth/settings.ts resolves it. */
export type AuthenticationFileConfig = v.InferOutput<typeof schema>;

export const authenticationSection = defineSection({
  key: 'authentication',
  schema,
  refused: {
    'authentication.exclude.metadata': 'the metadata routes follow authentication.required',
    'authentication.methods.cloud': 'Flipt Cloud login is not implemented',
  },
  resolve: (file): { authentication: AuthenticationFileConfig } => ({ authentication: file }),
});
