import { AsyncLocalStorage } from 'node:async_hooks';
import { execFile, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ChangeFeed } from '../../changes.js';
import { ConfigError, type GitStorageConfig } from '../../config/index.js';
import type { Database } from '../../db/index.js';
import { FliptError, GrpcCode, invalid } from '../errors.js';
import { FliptStore } from '../store/index.js';
import { parseFeatures } from './format.js';
import { INDEX_FILE, type LocalLog, loadDocuments, type Snapshot, selectFeaturesFiles, swapDatabase } from './local.js';
import { highestMatching, parseConstraint } from './semver.js';
import { textField } from '../../http/fields.js';

/** Commits other than the followed one kept loaded for `?reference=`; the least recently used goes first. */
const MAX_REFERENCES = 8;

/** An evicted reference's database closes this long after, so requests still reading it finish. */
const EVICTION_GRACE_MS = 30_000;

/** A fetch or a read taking longer than this fails (the last good data stays served). */
const GIT_TIMEOUT_MS = 120_000;

/** What a `?reference=` may name: a branch, a tag or a commit id. */
const REFERENCE = /^(?!-)(?!.*\.\.)[\w./@+-]{1,255}$/;

const COMMIT_ID = /^[0-9a-f]{4,40}$/;

/** How the followed ref fares, for `/health`. */
export interface GitStatus {
  ref: string;
  commit: string;
  /** When the remote last answered a fetch. */
  fetchedAt: string;
  /** Why the last fetch or load failed; absent when the latest commit is served. */
  error?: string;
}

/** The repository's branches and tags, for the console's ref selector. */
export interface GitReferences {
  ref: string;
  branches: string[];
  tags: string[];
}

/** The repository URL without the password a user may have written into it. */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z+]+:\/\/[^/@:]*):[^/@]*@/i, '$1:***@');
}

/**
 * The system `git`, run without a shell on a private bare mirror: credentials travel in the
 * environment (GIT_CONFIG_* entries, SSH_ASKPASS), never on the command line; prompts are off and
 * only the http(s), ssh and file transports are allowed.
 */
class GitMirror {
  readonly dir = mkdtempSync(join(tmpdir(), 'ensign-git-'));
  private readonly gitDir = join(this.dir, 'mirror.git');
  private readonly env: NodeJS.ProcessEnv;

  constructor(private readonly config: GitStorageConfig) {
    const settings: [string, string][] = [];
    const extra: NodeJS.ProcessEnv = {};
    const auth = config.authentication;
    if (auth?.type === 'basic') {
      const basic = Buffer.from(`${auth.username}:${auth.password}`).toString('base64');
      settings.push(['http.extraHeader', `Authorization: Basic ${basic}`]);
    } else if (auth?.type === 'token') {
      settings.push(['http.extraHeader', `Authorization: Bearer ${auth.accessToken}`]);
    } else if (auth?.type === 'ssh') {
      settings.push(['core.sshCommand', this.sshCommand(auth, extra)]);
    }
    const caPath = config.caCertBytes ? this.privateFile('ca.pem', config.caCertBytes) : config.caCertPath;
    if (caPath) settings.push(['http.sslCAInfo', caPath]);
    if (config.insecureSkipTls) settings.push(['http.sslVerify', 'false']);
    this.env = {
      PATH: process.env.PATH,
      HOME: this.dir,
      GIT_TERMINAL_PROMPT: '0',
      GIT_ALLOW_PROTOCOL: 'http:https:ssh:file',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_CONFIG_COUNT: String(settings.length),
      ...Object.fromEntries(
        settings.flatMap(([key, value], i) => [
          [`GIT_CONFIG_KEY_${i}`, key],
          [`GIT_CONFIG_VALUE_${i}`, value],
        ]),
      ),
      ...extra,
    };
  }

  /** `core.sshCommand` runs through a shell: every part is a path of ours or a checked name, quoted. */
  private sshCommand(auth: Extract<GitStorageConfig['authentication'], { type: 'ssh' }>, env: NodeJS.ProcessEnv) {
    if (!/^[\w.-]+$/.test(auth.user)) throw new ConfigError('storage.git.authentication.ssh.user must be a user name');
    const key = auth.privateKeyBytes
      ? this.privateFile('id_key', `${auth.privateKeyBytes.trim()}\n`)
      : auth.privateKeyPath!;
    const options = ['-i', key, '-o', 'IdentitiesOnly=yes', '-o', `User=${auth.user}`];
    if (auth.insecureIgnoreHostKey)
      options.push('-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null');
    else options.push('-o', 'StrictHostKeyChecking=yes');
    if (auth.password) {
      env.ENSIGN_GIT_SSH_PASSWORD = auth.password;
      env.SSH_ASKPASS = this.privateFile('askpass', '#!/bin/sh\nprintf \'%s\\n\' "$ENSIGN_GIT_SSH_PASSWORD"\n', 0o700);
      env.SSH_ASKPASS_REQUIRE = 'force';
    }
    return ['ssh', ...options].map((part) => `'${part.replace(/'/g, `'\\''`)}'`).join(' ');
  }

  private privateFile(name: string, content: string, mode = 0o600): string {
    const path = join(this.dir, name);
    writeFileSync(path, content, { mode });
    chmodSync(path, mode);
    return path;
  }

  private run(args: string[]): Promise<string> {
    return new Promise((resolve, reject) => {
      execFile(
        'git',
        ['--git-dir', this.gitDir, ...args],
        { env: this.env, timeout: GIT_TIMEOUT_MS, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' },
        (error, stdout, stderr) => {
          if (error) reject(new Error(gitProblem(stderr, error), { cause: error }));
          else resolve(stdout);
        },
      );
    });
  }

  async init(): Promise<void> {
    await this.run(['init', '--quiet', '--bare']);
  }

  /** Mirrors every branch and tag of the remote; branches and tags removed there go here too. */
  async fetch(): Promise<void> {
    await this.run([
      'fetch',
      '--quiet',
      '--prune',
      '--force',
      '--',
      this.config.repository,
      '+refs/heads/*:refs/heads/*',
      '+refs/tags/*:refs/tags/*',
    ]);
  }

  /** Every branch and tag with the commit it points at (an annotated tag's commit, not the tag object). */
  async refs(): Promise<{ branches: Map<string, string>; tags: Map<string, string> }> {
    const out = await this.run([
      'for-each-ref',
      '--format=%(objectname) %(*objectname) %(refname)',
      'refs/heads',
      'refs/tags',
    ]);
    const branches = new Map<string, string>();
    const tags = new Map<string, string>();
    for (const line of out.split('\n').filter(Boolean)) {
      const [object, peeled, name] = line.split(' ');
      if (name.startsWith('refs/heads/')) branches.set(name.slice('refs/heads/'.length), object);
      else tags.set(name.slice('refs/tags/'.length), peeled || object);
    }
    return { branches, tags };
  }

  /** The full id of a commit named by a (possibly abbreviated) id, or undefined. */
  async commit(id: string): Promise<string | undefined> {
    return this.run(['rev-parse', '--verify', '--quiet', '--end-of-options', `${id}^{commit}`]).then(
      (out) => out.trim(),
      () => undefined,
    );
  }

  /** The files under `directory` at `commit`, relative to it. */
  async files(commit: string, directory: string): Promise<string[]> {
    const out = await this.run([
      'ls-tree',
      '-r',
      '-z',
      '--name-only',
      '--full-tree',
      commit,
      '--',
      ...(directory ? [directory] : []),
    ]);
    const prefix = directory ? `${directory}/` : '';
    return out
      .split('\0')
      .filter((path) => path.startsWith(prefix) && path.length > prefix.length && !path.includes('\n'))
      .map((path) => path.slice(prefix.length));
  }

  /** The contents of `paths` at `commit`, in one `git cat-file --batch`; undefined for a missing one. */
  read(commit: string, paths: string[]): Promise<(string | undefined)[]> {
    return new Promise((resolve, reject) => {
      const child = spawn('git', ['--git-dir', this.gitDir, 'cat-file', '--batch'], { env: this.env });
      const chunks: Buffer[] = [];
      const errors: Buffer[] = [];
      child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => errors.push(chunk));
      child.on('error', reject);
      child.on('close', (code) => {
        if (code !== 0)
          return reject(new Error(gitProblem(Buffer.concat(errors).toString(), new Error(`exit ${code}`))));
        resolve(parseBatch(Buffer.concat(chunks), paths.length));
      });
      child.stdin.end(paths.map((path) => `${commit}:${path}\n`).join(''));
    });
  }

  discard(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** `git cat-file --batch` output: per object `<id> <type> <size>\n<content>\n`, or `<name> missing\n`. */
function parseBatch(output: Buffer, count: number): (string | undefined)[] {
  const contents: (string | undefined)[] = [];
  let at = 0;
  while (contents.length < count) {
    const end = output.indexOf(10, at);
    const header = output.toString('utf8', at, end).split(' ');
    at = end + 1;
    if (header[1] === 'missing' || header.length < 3) {
      contents.push(undefined);
      continue;
    }
    const size = Number(header[2]);
    contents.push(output.toString('utf8', at, at + size));
    at += size + 1;
  }
  return contents;
}

/** git's complaint in one line, named for what the operator must fix. */
export function gitProblem(stderr: string, error: Error & { killed?: boolean }): string {
  const lines = stderr
    .split('\n')
    .map((line) => line.replace(/^(fatal|error): /, '').trim())
    .filter(Boolean);
  const text = lines.join(' ');
  if (error.killed) return `git took longer than ${GIT_TIMEOUT_MS / 1000}s`;
  // An HTTP status only as git words it: a port or a path may hold the same digits.
  if (
    /authentication failed|returned error: 40[13]\b|permission denied|could not read username|could not read password/i.test(
      text,
    )
  )
    return `authentication refused: ${lines[lines.length - 1]}`;
  if (
    /could not resolve|connection refused|unable to access|does not appear to be a git repository|not found|timed out|could not read from remote/i.test(
      text,
    )
  )
    return `repository unreachable: ${lines[lines.length - 1]}`;
  return lines[lines.length - 1] ?? error.message.split('\n')[0];
}

/** A loaded commit, served for `?reference=` or as the followed ref. */
interface Loaded {
  commit: string;
  snapshot: Snapshot;
}

/** A Flipt store over the followed commit that, inside `selected.run(database)`, reads that database instead. */
class ReferencedStore extends FliptStore {
  constructor(
    database: Database,
    changes: ChangeFeed,
    private readonly selected: AsyncLocalStorage<Database>,
  ) {
    super(database, changes, { readOnly: true });
  }

  override get database(): Database {
    return this.selected.getStore() ?? super.database;
  }

  protected override get executor() {
    return this.database;
  }
}

/**
 * Read-only storage from a git repository (docs/architecture.md, "Git storage"): a bare mirror
 * fetched every `poll_interval`, the followed ref's features files loaded as `local` storage loads a
 * folder; a commit that does not load, or a remote that does not answer, keeps the last good data
 * served. `?reference=` on the Flipt read routes reads another branch, tag or commit, loaded on demand
 * and kept in a bounded cache.
 */
export class GitStorage {
  readonly store: FliptStore;
  private readonly selected = new AsyncLocalStorage<Database>();
  private followed: Loaded;
  private refs: { branches: Map<string, string>; tags: Map<string, string> };
  private readonly references = new Map<string, Promise<Loaded>>();
  /** Databases replaced or evicted, each closing after its grace period (or at close). */
  private readonly retiring = new Map<NodeJS.Timeout, Loaded>();
  private readonly status: GitStatus;
  /** The commit that failed to load and why: not tried again until the ref moves. */
  private broken?: { commit: string; message: string };
  private timer?: NodeJS.Timeout;
  private polling?: Promise<void>;
  private closed = false;
  private readonly listeners = new Set<(error?: Error) => void>();

  private constructor(
    private readonly config: GitStorageConfig,
    private readonly mirror: GitMirror,
    refs: GitStorage['refs'],
    followed: Loaded,
    private readonly changes: ChangeFeed,
    private readonly log: LocalLog,
  ) {
    this.refs = refs;
    this.followed = followed;
    this.store = new ReferencedStore(followed.snapshot.database, changes, this.selected);
    this.status = { ref: this.followedRefName(), commit: followed.commit, fetchedAt: new Date().toISOString() };
  }

  /** Fetches the repository and loads the followed ref; a problem stops the server with one line. */
  static async open(config: GitStorageConfig, changes: ChangeFeed, log: LocalLog): Promise<GitStorage> {
    const where = `git storage ${redactUrl(config.repository)}`;
    if (config.refType === 'semver') {
      try {
        parseConstraint(config.ref);
      } catch (error) {
        throw new ConfigError(`storage.git.ref: ${(error as Error).message}`);
      }
    }
    const mirror = new GitMirror(config);
    try {
      await mirror.init();
      await mirror.fetch();
      const refs = await mirror.refs();
      const commit = await followedCommit(config, mirror, refs);
      const followed = await loadCommit(mirror, commit, config.directory);
      return new GitStorage(config, mirror, refs, followed, changes, log);
    } catch (error) {
      mirror.discard();
      throw new ConfigError(`${where}: ${(error as Error).message.split('\n')[0]}`);
    }
  }

  /** Polls the remote every `poll_interval` until closed. */
  watch(): void {
    const next = () => {
      this.timer = setTimeout(() => {
        this.polling = this.poll().finally(() => !this.closed && next());
      }, this.config.pollIntervalMs);
      this.timer.unref();
    };
    next();
  }

  /** Called after each poll: without an argument when the latest commit is served, with the error when not. */
  onPoll(listener: (error?: Error) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Fetches, and serves the followed ref's new commit if it moved and loads. */
  async poll(): Promise<void> {
    const where = `git storage ${redactUrl(this.config.repository)}`;
    let failure: Error | undefined;
    try {
      await this.mirror.fetch();
      this.status.fetchedAt = new Date().toISOString();
      this.refs = await this.mirror.refs();
      const commit = await followedCommit(this.config, this.mirror, this.refs);
      if (commit !== this.followed.commit && commit !== this.broken?.commit && !this.closed) {
        try {
          await this.serve(await loadCommit(this.mirror, commit, this.config.directory));
          this.log.info(`${where}: serving ${this.status.ref} at ${commit}`);
        } catch (error) {
          const message = `commit ${commit.slice(0, 12)}: ${(error as Error).message.split('\n')[0]}`;
          this.broken = { commit, message };
        }
      }
      if (commit === this.broken?.commit) throw new Error(this.broken.message);
    } catch (error) {
      failure = error as Error;
      const message = failure.message.split('\n')[0];
      if (message !== this.status.error) {
        this.log.error(`${where}: ${message}; still serving ${this.followed.commit.slice(0, 12)}`);
      }
    }
    if (failure) this.status.error = failure.message.split('\n')[0];
    else if (this.status.error) {
      delete this.status.error;
      this.log.info(`${where}: serving ${this.status.ref} at ${this.followed.commit} again`);
    }
    for (const listener of this.listeners) listener(failure);
  }

  private async serve(next: Loaded): Promise<void> {
    if (this.closed) return next.snapshot.discard();
    const previous = this.followed;
    this.followed = next;
    this.broken = undefined;
    this.status.commit = next.commit;
    this.status.ref = this.followedRefName();
    await swapDatabase(this.store, this.changes, next.snapshot.database);
    this.retire(previous);
  }

  /** The followed ref's name; with `ref_type: semver`, the tag currently chosen. */
  private followedRefName(): string {
    if (this.config.refType !== 'semver') return this.config.ref;
    return highestMatching([...this.refs.tags.keys()], this.config.ref) ?? this.config.ref;
  }

  health(): GitStatus {
    return { ...this.status };
  }

  listReferences(): GitReferences {
    return {
      ref: this.status.ref,
      branches: [...this.refs.branches.keys()].sort(),
      tags: [...this.refs.tags.keys()].sort(),
    };
  }

  /** The database answering for `reference`: a branch, a tag or a commit id. */
  async databaseFor(reference: string): Promise<Database> {
    if (!REFERENCE.test(reference)) throw invalid(`invalid reference "${reference}": must be a branch, tag or commit`);
    const commit =
      this.refs.branches.get(reference) ??
      this.refs.tags.get(reference) ??
      (COMMIT_ID.test(reference) ? await this.mirror.commit(reference) : undefined);
    if (!commit) throw new FliptError(GrpcCode.NotFound, `reference "${reference}" not found`);
    if (commit === this.followed.commit) return this.followed.snapshot.database;
    let loading = this.references.get(commit);
    if (loading) this.references.delete(commit);
    else {
      loading = loadCommit(this.mirror, commit, this.config.directory);
      loading.catch(() => this.references.get(commit) === loading && this.references.delete(commit));
    }
    this.references.set(commit, loading);
    this.evictBeyondLimit();
    try {
      return (await loading).snapshot.database;
    } catch (error) {
      throw new FliptError(GrpcCode.FailedPrecondition, `reference "${reference}": ${(error as Error).message}`);
    }
  }

  private evictBeyondLimit(): void {
    for (const [commit, loading] of this.references) {
      if (this.references.size <= MAX_REFERENCES) return;
      this.references.delete(commit);
      loading.then(
        (loaded) => this.retire(loaded),
        () => {},
      );
    }
  }

  private retire(loaded: Loaded): void {
    const timer = setTimeout(() => {
      this.retiring.delete(timer);
      void loaded.snapshot.discard();
    }, EVICTION_GRACE_MS);
    timer.unref();
    this.retiring.set(timer, loaded);
  }

  /** Makes the Flipt routes registered in `app`'s scope answer `?reference=` from that ref. */
  answerReferences(app: FastifyInstance): void {
    app.addHook('preHandler', (request, _reply, done) => {
      const reference = textField(request.query, 'reference');
      if (reference === undefined || reference === '') return done();
      this.databaseFor(reference).then(
        (database) => this.selected.run(database, done),
        (error: Error) => done(error),
      );
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.polling;
    for (const [timer, retired] of this.retiring) {
      clearTimeout(timer);
      await retired.snapshot.discard();
    }
    const loaded = await Promise.allSettled(this.references.values());
    for (const result of loaded) if (result.status === 'fulfilled') await result.value.snapshot.discard();
    await this.followed.snapshot.discard();
    this.mirror.discard();
  }
}

async function followedCommit(
  config: GitStorageConfig,
  mirror: GitMirror,
  refs: { branches: Map<string, string>; tags: Map<string, string> },
): Promise<string> {
  if (config.refType === 'semver') {
    const tag = highestMatching([...refs.tags.keys()], config.ref);
    if (!tag) throw new Error(`no tag matches the semver constraint "${config.ref}"`);
    return refs.tags.get(tag)!;
  }
  const commit =
    refs.branches.get(config.ref) ??
    refs.tags.get(config.ref) ??
    (COMMIT_ID.test(config.ref) ? await mirror.commit(config.ref) : undefined);
  if (!commit) throw new Error(`ref "${config.ref}" not found in the repository`);
  return commit;
}

/** Reads a commit's features files exactly as `local` storage reads a folder, into a new snapshot. */
async function loadCommit(mirror: GitMirror, commit: string, directory: string): Promise<Loaded> {
  const paths = await mirror.files(commit, directory);
  const prefix = directory ? `${directory}/` : '';
  const indexText = paths.includes(INDEX_FILE) ? (await mirror.read(commit, [prefix + INDEX_FILE]))[0] : undefined;
  const selected = selectFeaturesFiles(paths, () => indexText);
  const texts = await mirror.read(
    commit,
    selected.map((path) => prefix + path),
  );
  const documents = selected.flatMap((path, i) => parseFeatures(texts[i] ?? '', path));
  return { commit, snapshot: await loadDocuments(documents) };
}
