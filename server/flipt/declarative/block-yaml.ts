import { CORE_SCHEMA, load } from 'js-yaml';

/**
 * A fast loader for the common shape of a features file: block-style YAML documents whose `flags` and
 * `segments` are block sequences. Each sequence is cut into chunks of items at the lines that start
 * an item, and every chunk is loaded on its own with js-yaml (YAML 1.2 core schema), so a file of
 * 100,000 flags never builds one parse tree for the whole file. `yaml` (the parser used everywhere
 * else) needed 2.7 s and 315 MB for 10,000 flags; this needs a fraction of both.
 *
 * It answers `undefined` whenever the text is anything else (anchors, aliases, tags, directives,
 * flow-style sequences, a syntax error): the caller then parses with `yaml`, which limits aliases
 * and words the errors. Both produce the same values for the texts this accepts.
 */
export function loadBlockDocuments(source: string): unknown[] | undefined {
  if (MAYBE_ANCHOR_ALIAS_OR_TAG.test(source) || /^%/m.test(source)) return undefined;
  try {
    return splitDocuments(source).map(loadDocument);
  } catch {
    return undefined;
  }
}

/** `&anchor`, `*alias` or `!tag` where a node may start (a false positive only costs the fast path). */
const MAYBE_ANCHOR_ALIAS_OR_TAG = /(?:^|[\s[{,:?-])[&*!][^\s]/m;

/** Items loaded together: bounds the text each js-yaml call holds. */
const ITEMS_PER_CHUNK = 1000;

const SPLIT_SECTIONS = new Set(['flags', 'segments']);

function splitDocuments(source: string): string[][] {
  const documents: string[][] = [[]];
  let ended = false; // after `...`, the next `---` starts the document `...` already opened
  for (const line of source.split(/\r?\n/)) {
    if (/^---(?:\s|$)/.test(line)) {
      // Content after the marker on the same line (`--- {}`) is not a shape this loader takes.
      const after = line.slice(3).trim();
      if (after !== '' && !after.startsWith('#')) throw new Error('inline document');
      if (!(ended && documents[documents.length - 1].every(isBlankOrComment))) documents.push([]);
      ended = false;
    } else if (/^\.\.\.(?:\s|$)/.test(line)) {
      documents.push([]);
      ended = true;
    } else {
      documents[documents.length - 1].push(line);
    }
  }
  // Before the first marker, only comments: the marker opens the first document (as in `yaml`).
  if (documents.length > 1 && documents[0].every(isBlankOrComment)) documents.shift();
  return documents;
}

const isBlankOrComment = (line: string) => /^\s*(?:#.*)?$/.test(line);

/** Loads one document: its split sections chunk by chunk, the rest of it in one go. */
function loadDocument(lines: string[]): unknown {
  const rest: string[] = [];
  const sections = new Map<string, unknown[] | null>();
  let index = 0;
  while (index < lines.length) {
    const header = /^([a-z]+):\s*(?:#.*)?$/.exec(lines[index]);
    if (!header || !SPLIT_SECTIONS.has(header[1])) {
      rest.push(lines[index++]);
      continue;
    }
    let end = index + 1;
    while (end < lines.length && (isBlankOrComment(lines[end]) || /^\s/.test(lines[end]) || /^-/.test(lines[end])))
      end++;
    sections.set(header[1], loadSequence(lines.slice(index + 1, end)));
    rest.push(`${header[1]}: null`);
    index = end;
  }
  const value = load(rest.join('\n'), { schema: CORE_SCHEMA });
  if (sections.size === 0) return value;
  if (value !== null && (typeof value !== 'object' || Array.isArray(value))) throw new Error('not a mapping');
  return { ...(value as Record<string, unknown>), ...Object.fromEntries(sections) };
}

/** A block sequence's lines, loaded a chunk of items at a time (no lines: the key's value is null). */
function loadSequence(lines: string[]): unknown[] | null {
  const first = lines.find((line) => !isBlankOrComment(line));
  if (first === undefined) return null;
  const indent = /^(\s*)-(?:\s|$)/.exec(first)?.[1];
  if (indent === undefined) throw new Error('not a block sequence');
  const itemStart = new RegExp(`^${indent}-(?:\\s|$)`);
  const items: unknown[] = [];
  let chunk: string[] = [];
  let count = 0;
  const flush = () => {
    const loaded = load(chunk.join('\n'), { schema: CORE_SCHEMA });
    if (!Array.isArray(loaded)) throw new Error('not a sequence');
    for (const item of loaded) items.push(item);
    chunk = [];
    count = 0;
  };
  for (const line of lines) {
    if (itemStart.test(line)) {
      if (count === ITEMS_PER_CHUNK) flush();
      count++;
    } else if (!isBlankOrComment(line) && line.length - line.trimStart().length <= indent.length) {
      // A line at or left of the items' indentation that starts no item: not a plain block sequence.
      throw new Error('unexpected line in a block sequence');
    }
    chunk.push(line);
  }
  if (count) flush();
  return items;
}
