import { CORE_SCHEMA, load } from 'js-yaml';

/**
 * A fast, streaming loader for the common shape of a features file: block-style YAML documents whose
 * `flags` and `segments` are block sequences. One pass over the text finds where each document and
 * each of those sequences starts and cuts the sequences into chunks of items at the lines that start
 * an item; the rest of each document (version, namespace) is loaded at once with js-yaml (YAML 1.2
 * core schema), the chunks only when they are read. An import of 100,000 flags thus holds the text
 * and one chunk of parsed items at a time, never one parse tree for the whole file.
 *
 * It answers `undefined` whenever the text is anything else (anchors, aliases, tags, directives,
 * flow-style sequences, a misplaced line, a syntax error outside the sequences): the caller then
 * parses with `yaml`, which limits aliases and words the errors. A syntax error inside an item is
 * only found when its chunk is read: the chunk then throws js-yaml's error. Both parsers produce the
 * same values for the texts this accepts.
 */
export function loadBlockDocuments(source: string): BlockDocument[] | undefined {
  if (MAYBE_ANCHOR_ALIAS_OR_TAG.test(source) || /^%/m.test(source)) return undefined;
  try {
    return splitDocuments(source).map((document) => loadDocument(source, document));
  } catch {
    return undefined;
  }
}

export interface BlockDocument {
  /** The document, with each of its split sequences read as null. */
  rest: unknown;
  /** The items of each split sequence that has some, a chunk at a time, loaded as they are read. */
  sections: Map<string, Iterable<unknown[]>>;
}

/** `&anchor`, `*alias` or `!tag` where a node may start (a false positive only costs the fast path). */
const MAYBE_ANCHOR_ALIAS_OR_TAG = /(?:^|[\s[{,:?-])[&*!][^\s]/m;

/** Items loaded together: bounds the text each js-yaml call holds. */
const ITEMS_PER_CHUNK = 1000;

const SPLIT_SECTIONS = new Set(['flags', 'segments']);

/** A split sequence as found by the scan: where its chunks of items start and end in the text. */
interface Section {
  name: string;
  indent?: string;
  itemStart?: RegExp;
  chunks: [start: number, end: number][];
  chunkStart: number;
  items: number;
}

interface ScannedDocument {
  rest: string[];
  sections: Section[];
  onlyComments: boolean;
}

const isBlankOrComment = (line: string) => /^\s*(?:#.*)?$/.test(line);

/** Every line of the text with the offsets where it starts and where the next one starts. */
function* linesOf(source: string): Generator<[line: string, start: number, next: number]> {
  let start = 0;
  while (start < source.length) {
    const newline = source.indexOf('\n', start);
    const end = newline === -1 ? source.length : newline;
    const next = newline === -1 ? source.length : newline + 1;
    yield [source.slice(start, end > start && source[end - 1] === '\r' ? end - 1 : end), start, next];
    start = next;
  }
}

function splitDocuments(source: string): ScannedDocument[] {
  const newDocument = (): ScannedDocument => ({ rest: [], sections: [], onlyComments: true });
  const documents = [newDocument()];
  let section: Section | undefined;
  let ended = false; // after `...`, the next `---` starts the document `...` already opened
  const endSection = (at: number) => {
    if (section?.items) section.chunks.push([section.chunkStart, at]);
    section = undefined;
  };
  for (const [line, start, next] of linesOf(source)) {
    const document = documents[documents.length - 1];
    if (/^---(?:\s|$)/.test(line)) {
      endSection(start);
      // Content after the marker on the same line (`--- {}`) is not a shape this loader takes.
      const after = line.slice(3).trim();
      if (after !== '' && !after.startsWith('#')) throw new Error('inline document');
      if (!(ended && document.onlyComments)) documents.push(newDocument());
      ended = false;
      continue;
    }
    if (/^\.\.\.(?:\s|$)/.test(line)) {
      endSection(start);
      documents.push(newDocument());
      ended = true;
      continue;
    }
    const blank = isBlankOrComment(line);
    if (!blank) document.onlyComments = false;
    if (section && (blank || /^[\s-]/.test(line))) {
      addSectionLine(section, line, blank, start);
      continue;
    }
    endSection(start);
    const header = /^([a-z]+):\s*(?:#.*)?$/.exec(line);
    if (header && SPLIT_SECTIONS.has(header[1])) {
      section = { name: header[1], chunks: [], chunkStart: next, items: 0 };
      document.sections.push(section);
      // Read as null: the sequence's items come from the section; a key given twice stays an error.
      document.rest.push(`${header[1]}: null`);
      continue;
    }
    document.rest.push(line);
  }
  endSection(source.length);
  // Before the first marker, only comments: the marker opens the first document (as in `yaml`).
  if (documents.length > 1 && documents[0].onlyComments) documents.shift();
  return documents;
}

/** Places one line of a block sequence: a new item may start a new chunk; anything else must be inside an item. */
function addSectionLine(section: Section, line: string, blank: boolean, start: number) {
  if (blank) return;
  if (section.itemStart === undefined) {
    const indent = /^(\s*)-(?:\s|$)/.exec(line)?.[1];
    if (indent === undefined) throw new Error('not a block sequence');
    section.indent = indent;
    section.itemStart = new RegExp(`^${indent}-(?:\\s|$)`);
  }
  if (section.itemStart.test(line)) {
    if (section.items > 0 && section.items % ITEMS_PER_CHUNK === 0) {
      section.chunks.push([section.chunkStart, start]);
      section.chunkStart = start;
    }
    section.items++;
  } else if (line.length - line.trimStart().length <= section.indent!.length) {
    // A line at or left of the items' indentation that starts no item: not a plain block sequence.
    throw new Error('unexpected line in a block sequence');
  }
}

function loadDocument(source: string, document: ScannedDocument): BlockDocument {
  const rest = load(document.rest.join('\n'), { schema: CORE_SCHEMA });
  const sections = new Map<string, Iterable<unknown[]>>();
  for (const section of document.sections) {
    if (section.items) sections.set(section.name, { [Symbol.iterator]: () => loadChunks(source, section.chunks) });
  }
  if (document.sections.length && (rest === null || typeof rest !== 'object' || Array.isArray(rest))) {
    throw new Error('not a mapping');
  }
  return { rest, sections };
}

function* loadChunks(source: string, chunks: [number, number][]): Generator<unknown[]> {
  for (const [start, end] of chunks) {
    const loaded = load(source.slice(start, end), { schema: CORE_SCHEMA });
    if (!Array.isArray(loaded)) throw new Error('not a sequence');
    yield loaded;
  }
}
