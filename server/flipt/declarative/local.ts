import { mkdtempSync, readdirSync, readFileSync, rmSync, watch, type FSWatcher } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ChangeFeed } from '../../changes.js';
import { ConfigError } from '../../config/index.js';
import { openDatabase, type Database } from '../../db/index.js';
import { FliptStore } from '../store/index.js';
import { FormatError, parseFeatures, type FeaturesDocument } from './format.js';
import { importFeatures } from './import.js';

/** The files declarative storage reads when the folder has no index, as in Flipt. */
const DEFAULT_INCLUDE = ['**/features.yml', '**/features.yaml', '**/*.features.yml', '**/*.features.yaml'];

/** Flipt's optional index at the folder's root: `include` and `exclude` globs select the files instead. */
export const INDEX_FILE = '.flipt.yml';

/** Changes within this long of each other are loaded once (an editor saving writes several times). */
const DEBOUNCE_MS = 100;

export interface LocalLog {
  info(message: string): void;
  error(message: string): void;
}

/** The features files under `dir`, at any depth, in a stable order. */
export function findFeaturesFiles(dir: string): string[] {
  const paths = readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((entry) => entry.split(sep).join('/'));
  return selectFeaturesFiles(paths, () => readIndexText(dir)).map((path) => join(dir, path));
}

/**
 * The features files among `paths` (relative, `/`-separated), in a stable order: those the index's
 * globs select, else the default names. `indexText` gives the index's text, or undefined without one.
 */
export function selectFeaturesFiles(paths: string[], indexText: () => string | undefined): string[] {
  const { include, exclude } = readIndex(indexText());
  const selected = (path: string) =>
    include.some((glob) => glob.test(path)) && !exclude.some((glob) => glob.test(path));
  return paths.filter((path) => path !== INDEX_FILE && selected(path)).sort();
}

function readIndexText(dir: string): string | undefined {
  try {
    return readFileSync(join(dir, INDEX_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return undefined;
  }
}

function readIndex(text: string | undefined): { include: RegExp[]; exclude: RegExp[] } {
  if (text === undefined) return { include: DEFAULT_INCLUDE.map(globToRegExp), exclude: [] };
  const fail = (problem: string): never => {
    throw new FormatError(`${INDEX_FILE}: ${problem}`);
  };
  let index: unknown;
  try {
    index = parseYaml(text) ?? {};
  } catch (error) {
    fail(`invalid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  if (typeof index !== 'object' || index === null || Array.isArray(index)) return fail('must be a mapping');
  const { version, include, exclude, ...unknown } = index as Record<string, unknown>;
  if (Object.keys(unknown).length) fail(`unknown key "${Object.keys(unknown)[0]}"`);
  if (version !== undefined && version !== '1.0')
    fail(`unsupported version ${JSON.stringify(version)} (expected "1.0")`);
  const globs = (value: unknown, key: string): RegExp[] => {
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value) || value.some((glob) => typeof glob !== 'string'))
      fail(`${key} must be a list of glob patterns`);
    return (value as string[]).map(globToRegExp);
  };
  const included = globs(include, 'include');
  return {
    include: included.length ? included : DEFAULT_INCLUDE.map(globToRegExp),
    exclude: globs(exclude, 'exclude'),
  };
}

/** A glob over `/`-separated paths: `**` spans folders, `*` and `?` stay within one. */
export function globToRegExp(glob: string): RegExp {
  let pattern = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      pattern += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') pattern += '[^/]*';
    else if (c === '?') pattern += '[^/]';
    else pattern += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${pattern}$`);
}

/** One loaded copy of the features files: a private SQLite database in a temporary directory. */
export interface Snapshot {
  database: Database;
  discard(): Promise<void>;
}

function load(dir: string): Promise<Snapshot> {
  return loadDocuments(
    findFeaturesFiles(dir).flatMap((file) => parseFeatures(readFileSync(file, 'utf8'), relative(dir, file))),
  );
}

/** Imports parsed features documents into a new private database. */
export async function loadDocuments(documents: FeaturesDocument[]): Promise<Snapshot> {
  const tempDir = mkdtempSync(join(tmpdir(), 'ensign-declarative-'));
  const discard = async (database?: Database) => {
    await database?.close();
    rmSync(tempDir, { recursive: true, force: true });
  };
  let database: Database | undefined;
  try {
    database = await openDatabase(`file:${join(tempDir, 'features.db')}`);
    await importFeatures(new FliptStore(database, new ChangeFeed(), { readOnly: false }), documents);
  } catch (error) {
    await discard(database);
    throw error;
  }
  const loaded = database;
  return { database: loaded, discard: () => discard(loaded) };
}

export type ReloadListener = (error?: Error) => void;

/**
 * Read-only declarative storage: a folder of Flipt features files loaded into a private SQLite
 * database and served through a read-only FliptStore, so every read route works unchanged and every
 * write gets Flipt's read-only error. A change in the folder loads it into a new database that then
 * replaces the old one; a broken file keeps the last good data served and is logged.
 */
export class LocalStorage {
  readonly store: FliptStore;
  private current: Snapshot;
  /** The snapshot replaced last: requests that started on it may still be reading, so it closes one reload later. */
  private retired?: Snapshot;
  private watcher?: FSWatcher;
  private timer?: NodeJS.Timeout;
  private reloading?: Promise<void>;
  private pending = false;
  private closed = false;
  private readonly listeners = new Set<ReloadListener>();

  private constructor(
    readonly dir: string,
    snapshot: Snapshot,
    private readonly changes: ChangeFeed,
    private readonly log: LocalLog,
  ) {
    this.current = snapshot;
    this.store = new FliptStore(snapshot.database, changes, { readOnly: true });
  }

  /** Loads the folder; a problem stops the server with one line naming the file and the field. */
  static async open(dir: string, changes: ChangeFeed, log: LocalLog): Promise<LocalStorage> {
    try {
      return new LocalStorage(dir, await load(dir), changes, log);
    } catch (error) {
      throw new ConfigError(`local storage ${dir}: ${describe(error)}`);
    }
  }

  /** Reloads after every change in the folder, until closed. */
  watch(): void {
    this.watcher = watch(this.dir, { recursive: true }, () => {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => void this.reload(), DEBOUNCE_MS);
    });
    this.watcher.on('error', (error) =>
      this.log.error(`local storage ${this.dir}: watching failed: ${describe(error)}`),
    );
  }

  /** Called after each reload: without an argument when the new data is served, with the error when not. */
  onReload(listener: ReloadListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Loads the folder again and swaps it in; reloads asked for while one runs happen once, after it. */
  async reload(): Promise<void> {
    if (this.reloading) {
      this.pending = true;
      return this.reloading;
    }
    this.reloading = (async () => {
      do {
        this.pending = false;
        await this.reloadOnce();
      } while (this.pending && !this.closed);
    })().finally(() => (this.reloading = undefined));
    return this.reloading;
  }

  private async reloadOnce(): Promise<void> {
    let next: Snapshot;
    try {
      next = await load(this.dir);
    } catch (error) {
      this.log.error(`local storage ${this.dir}: reload failed, still serving the last good data: ${describe(error)}`);
      this.notify(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    if (this.closed) return next.discard();
    await this.retired?.discard();
    this.retired = this.current;
    this.current = next;
    await swapDatabase(this.store, this.changes, next.database);
    this.log.info(`local storage ${this.dir}: reloaded`);
    this.notify();
  }

  private notify(error?: Error): void {
    for (const listener of this.listeners) listener(error);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.watcher?.close();
    await this.reloading;
    await this.retired?.discard();
    await this.current.discard();
  }
}

/** Serves `database` from `store` and publishes every namespace the old or the new data holds. */
export async function swapDatabase(store: FliptStore, changes: ChangeFeed, database: Database): Promise<void> {
  const namespaceKeys = async () => (await store.listNamespaces()).namespaces.map((namespace) => namespace.key);
  const before = await namespaceKeys();
  store.replaceDatabase(database);
  const after = await namespaceKeys();
  for (const key of new Set([...before, ...after])) void changes.publish(key, undefined, 'here');
}

function describe(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  if (code === 'ENOENT' || code === 'EACCES' || code === 'ENOTDIR') return `cannot read the folder: ${code}`;
  return (error instanceof Error ? message : String(error)).split('\n')[0];
}
