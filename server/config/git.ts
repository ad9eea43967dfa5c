import { resolve } from 'node:path';
import * as v from 'valibot';
import { duration, parseDurationMs } from './duration.js';
import { ConfigError } from './errors.js';
import { bool, opt, str } from './section.js';

/** `storage.git` in config.yml. */
export const gitSchema = v.strictObject({
  repository: opt(str),
  ref: opt(str),
  ref_type: opt(v.picklist(['static', 'semver'], 'must be "static" or "semver"')),
  directory: opt(str),
  poll_interval: opt(duration),
  ca_cert_path: opt(str),
  ca_cert_bytes: opt(str),
  insecure_skip_tls: opt(bool),
  authentication: opt(
    v.strictObject({
      basic: opt(v.strictObject({ username: opt(str), password: opt(str) })),
      token: opt(v.strictObject({ access_token: opt(str) })),
      ssh: opt(
        v.strictObject({
          user: opt(str),
          password: opt(str),
          private_key_bytes: opt(str),
          private_key_path: opt(str),
          insecure_ignore_host_key: opt(bool),
        }),
      ),
    }),
  ),
});

/** `storage.git`: the repository the flags are read from (server/flipt/declarative/git.ts). */
export interface GitStorageConfig {
  /** An http(s), ssh (`ssh://` or `user@host:path`) or file URL. */
  repository: string;
  /** The branch, tag or commit followed; with `refType: 'semver'`, a constraint on tags. */
  ref: string;
  refType: 'static' | 'semver';
  /** The sub-folder of the repository holding the files, '' for its root. */
  directory: string;
  pollIntervalMs: number;
  caCertPath?: string;
  caCertBytes?: string;
  insecureSkipTls: boolean;
  authentication?:
    | { type: 'basic'; username: string; password: string }
    | { type: 'token'; accessToken: string }
    | {
        type: 'ssh';
        user: string;
        password?: string;
        privateKeyBytes?: string;
        privateKeyPath?: string;
        insecureIgnoreHostKey: boolean;
      };
}

/** URLs git may fetch from: http(s), ssh, file, or scp-like `user@host:path`. */
const REPOSITORY_URL = /^(?:(?:https?|ssh|file):\/\/\S+|[\w.-]+@[\w.-]+:\S+)$/;

export function gitStorageConfig(git: v.InferOutput<typeof gitSchema>): GitStorageConfig {
  const { repository, authentication: auth = {} } = git;
  if (!repository) throw new ConfigError('storage.git.repository is required when storage.type is "git"');
  if (!REPOSITORY_URL.test(repository)) {
    throw new ConfigError('storage.git.repository must be an http(s), ssh or file URL, or user@host:path');
  }
  const ref = git.ref ?? 'main';
  if (!ref || ref.startsWith('-'))
    throw new ConfigError(`storage.git.ref must be a branch, tag or commit (got "${ref}")`);
  const directory = (git.directory ?? '').replace(/^\/+|\/+$/g, '');
  if (directory.split('/').includes('..'))
    throw new ConfigError('storage.git.directory must stay inside the repository');
  const methods = Object.keys(auth);
  if (methods.length > 1) {
    throw new ConfigError(`storage.git.authentication takes one method (got ${methods.join(' and ')})`);
  }
  const config: GitStorageConfig = {
    repository,
    ref,
    refType: git.ref_type ?? 'static',
    directory,
    pollIntervalMs: parseDurationMs(git.poll_interval ?? '30s', 'storage.git.poll_interval'),
    caCertPath: git.ca_cert_path && resolve(git.ca_cert_path),
    caCertBytes: git.ca_cert_bytes,
    insecureSkipTls: git.insecure_skip_tls ?? false,
  };
  if (config.pollIntervalMs < 1000) throw new ConfigError('storage.git.poll_interval must be at least 1s');
  if (auth.basic) {
    const { username, password } = auth.basic;
    if (!username || !password) {
      throw new ConfigError('storage.git.authentication.basic needs username and password');
    }
    config.authentication = { type: 'basic', username, password };
  } else if (auth.token) {
    if (!auth.token.access_token) throw new ConfigError('storage.git.authentication.token needs access_token');
    config.authentication = { type: 'token', accessToken: auth.token.access_token };
  } else if (auth.ssh) {
    const ssh = auth.ssh;
    if (!ssh.private_key_bytes === !ssh.private_key_path) {
      throw new ConfigError('storage.git.authentication.ssh needs one of private_key_bytes and private_key_path');
    }
    config.authentication = {
      type: 'ssh',
      user: ssh.user ?? 'git',
      password: ssh.password,
      privateKeyBytes: ssh.private_key_bytes,
      privateKeyPath: ssh.private_key_path && resolve(ssh.private_key_path),
      insecureIgnoreHostKey: ssh.insecure_ignore_host_key ?? false,
    };
  }
  return config;
}
