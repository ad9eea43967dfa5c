import { open, readFile, rename, rm, stat } from 'node:fs/promises';
import type { Config } from '../../config/index.js';
import { openDatabase } from '../../db/index.js';
import { ChangeFeed } from '../../changes.js';
import { FliptStore } from '../store/index.js';
import { DEFAULT_NAMESPACE } from '../../../domain/flipt/types.js';
import { FliptError } from '../errors.js';
import { type FlagDocument, FormatError, featuresYaml, type PagedDocument, streamFeatures } from './format.js';
import { ImportError, importFeatures, type ImportSummary } from './import.js';
import { exportDocuments, type NamespaceSelection } from './export.js';
import { terminalProgress } from './progress.js';

/** A refused `ensign import` or `ensign export`, worded as one line for the terminal. */
export class CommandError extends Error {
  override name = 'CommandError';
}

export interface ImportCommandOptions {
  file?: string;
  stdin?: boolean;
  skipExisting?: boolean;
  drop?: boolean;
}

/**
 * `ensign import FILE|--stdin [--skip-existing] [--drop]`: one transaction into the configured
 * database, all or nothing (see importFeatures), the file read and written a chunk at a time; on a
 * terminal, progress in flags/s. Returns a one-line report of what was imported.
 */
export async function importCommand(config: Config, options: ImportCommandOptions): Promise<string> {
  if (Boolean(options.stdin) === (options.file !== undefined)) {
    throw new CommandError('import needs a file name or --stdin (exactly one of them)');
  }
  const source = options.stdin ? 'stdin' : options.file!;
  const text = options.stdin ? await readStdin() : await readSource(source);
  // The version and namespaces are checked before the database is opened; flags as they are written.
  const documents = await expected(() => streamFeatures(text, source));
  const database = await openDatabase(config.db.url);
  const changes = new ChangeFeed();
  try {
    // Servers running on the same PostgreSQL database hear of the import and drop their caches.
    const stopRelay = database.pgPool ? await changes.relayThroughPostgres(database.url, database.pgPool) : undefined;
    try {
      const store = new FliptStore(database, changes, { readOnly: false });
      const progress = terminalProgress('imported');
      try {
        const onProgress = progress?.update;
        return report(await expected(() => importFeatures(store, documents, { ...options, onProgress })));
      } finally {
        progress?.done();
      }
    } finally {
      await stopRelay?.();
    }
  } finally {
    await database.close();
  }
}

function report({ flags, segments, skipped, namespaces }: ImportSummary): string {
  const into = namespaces.length ? ` into ${namespaces.join(', ')}` : '';
  return `imported ${flags} flag(s) and ${segments} segment(s)${into}${skipped ? `; skipped ${skipped} that already existed` : ''}`;
}

export interface ExportCommandOptions {
  namespaces?: string;
  allNamespaces?: boolean;
  output?: string;
  /** `--sort-by-key`: see ExportOptions. */
  sortByKey?: boolean;
}

/**
 * `ensign export [--namespaces a,b | --all-namespaces] [--sort-by-key] [-o FILE]`: the YAML goes to `write` (stdout)
 * or to FILE, a page of flags at a time; a file appears only once it is complete. On a terminal,
 * progress in flags/s.
 */
export async function exportCommand(
  config: Config,
  options: ExportCommandOptions,
  write: (text: string) => Promise<void>,
): Promise<void> {
  if (options.allNamespaces && options.namespaces !== undefined) {
    throw new CommandError('--namespaces and --all-namespaces cannot be used together');
  }
  const selection: NamespaceSelection = options.allNamespaces
    ? 'all'
    : {
        keys: (options.namespaces ?? DEFAULT_NAMESPACE)
          .split(',')
          .map((key) => key.trim())
          .filter(Boolean),
      };
  if (selection !== 'all' && selection.keys.length === 0) throw new CommandError('--namespaces names no namespace');
  const database = await openDatabase(config.db.url);
  try {
    const store = new FliptStore(database, new ChangeFeed(), { readOnly: true });
    const documents = await expected(() => exportDocuments(store, selection, { sortByKey: options.sortByKey }));
    if (options.output === undefined) return await writeDocuments(documents, write);
    const file = options.output;
    const partial = `${file}.partial-${process.pid}`;
    const cannotWrite = (error: NodeJS.ErrnoException) =>
      new CommandError(`cannot write ${file}: ${error.code ?? error.message}`);
    const handle = await open(partial, 'w').catch((error) => {
      throw cannotWrite(error);
    });
    try {
      await writeDocuments(documents, async (text) => {
        await handle.write(text).catch((error) => {
          throw cannotWrite(error);
        });
      });
      await handle.close();
      await rename(partial, file).catch((error) => {
        throw cannotWrite(error);
      });
    } finally {
      await handle.close().catch(() => undefined);
      await rm(partial, { force: true });
    }
  } finally {
    await database.close();
  }
}

/** Writes the documents as `serializeFeatures` would, reading and writing their flags a page at a time. */
async function writeDocuments(documents: PagedDocument[], write: (text: string) => Promise<void>): Promise<void> {
  const progress = terminalProgress('exported');
  let flags = 0;
  async function* counted(pages: PagedDocument['flagPages']): AsyncGenerator<FlagDocument[]> {
    for await (const page of pages) {
      yield page;
      flags += page.length;
      progress?.update(flags);
    }
  }
  try {
    const paged = documents.map((document) => ({ ...document, flagPages: counted(document.flagPages) }));
    for await (const piece of featuresYaml(paged)) await write(piece);
  } finally {
    progress?.done();
  }
}

/**
 * The largest features file `ensign import` reads: far beyond any real one (a flag with rules takes
 * well under 1 KB), and small enough that parsing it cannot exhaust the process's memory.
 */
export const MAX_IMPORT_BYTES = 32 * 1024 * 1024;

const tooLarge = (source: string) =>
  new CommandError(`${source} is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB, the most import reads`);

async function readSource(file: string): Promise<string> {
  try {
    if ((await stat(file)).size > MAX_IMPORT_BYTES) throw tooLarge(file);
    return await readFile(file, 'utf8');
  } catch (error) {
    if (error instanceof CommandError) throw error;
    throw new CommandError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    size += (chunk as Buffer).length;
    if (size > MAX_IMPORT_BYTES) throw tooLarge('stdin');
    chunks.push(Buffer.from(chunk as Buffer));
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Turns the errors a bad file or a refused write raise into a CommandError; anything else is a bug and stays as it is. */
async function expected<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof FormatError || error instanceof ImportError || error instanceof FliptError) {
      throw new CommandError(error.message);
    }
    throw error;
  }
}
