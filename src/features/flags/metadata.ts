// A flag's metadata (a JSON object) as the flag form edits it: one entry per key, its value as text with
// the type it is read back as. Types follow the JSON value, so a flag's metadata is saved back unchanged.
import * as v from 'valibot';
import { MESSAGES } from '../../lib/validation';

export const METADATA_TYPES = [
  { type: 'string', label: 'String' },
  { type: 'number', label: 'Number' },
  { type: 'boolean', label: 'Boolean' },
  { type: 'json', label: 'JSON' },
] as const;
export type MetadataType = (typeof METADATA_TYPES)[number]['type'];

export interface MetadataEntry {
  key: string;
  type: MetadataType;
  /** The value as typed: 'true' or 'false' for a boolean, JSON text for an object, list or null. */
  value: string;
}

/** The messages of one entry (Flipt's console words for the key). */
export interface MetadataProblem {
  key?: string;
  value?: string;
}

export const METADATA_MESSAGES = {
  keyRequired: 'Key is required',
  keyUnique: 'Key must be unique',
  number: 'Must be a number',
  json: MESSAGES.json,
} as const;

export function toEntries(metadata: Record<string, unknown> | undefined): MetadataEntry[] {
  return Object.entries(metadata ?? {}).map(([key, value]): MetadataEntry => {
    if (typeof value === 'string') return { key, type: 'string', value };
    if (typeof value === 'number') return { key, type: 'number', value: String(value) };
    if (typeof value === 'boolean') return { key, type: 'boolean', value: String(value) };
    return { key, type: 'json', value: JSON.stringify(value) };
  });
}

function parsed(entry: MetadataEntry): unknown {
  switch (entry.type) {
    case 'string':
      return entry.value;
    case 'number':
      return Number(entry.value);
    case 'boolean':
      return entry.value === 'true';
    case 'json':
      return JSON.parse(entry.value);
  }
}

/** The metadata object to send; call it on entries without problems. */
export function toMetadata(entries: MetadataEntry[]): Record<string, unknown> {
  return Object.fromEntries(entries.map((entry) => [entry.key, parsed(entry)]));
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Each entry's problems, at its index (undefined when it has none). */
export function metadataProblems(entries: MetadataEntry[]): (MetadataProblem | undefined)[] {
  const counts = new Map<string, number>();
  for (const { key } of entries) counts.set(key, (counts.get(key) ?? 0) + 1);
  return entries.map(({ key, type, value }) => {
    const problem: MetadataProblem = {};
    if (key.trim() === '') problem.key = METADATA_MESSAGES.keyRequired;
    else if ((counts.get(key) ?? 0) > 1) problem.key = METADATA_MESSAGES.keyUnique;
    if (type === 'number' && (value.trim() === '' || !Number.isFinite(Number(value))))
      problem.value = METADATA_MESSAGES.number;
    if (type === 'json' && !isJson(value)) problem.value = METADATA_MESSAGES.json;
    return problem.key || problem.value ? problem : undefined;
  });
}

/** The entry with another type: a boolean becomes 'true' or 'false', any other value keeps its text. */
export function retyped(entry: MetadataEntry, type: MetadataType): MetadataEntry {
  return { ...entry, type, value: type === 'boolean' ? String(entry.value === 'true') : entry.value };
}

export const metadataRule = v.pipe(
  v.array(
    v.object({
      key: v.string(),
      type: v.picklist(METADATA_TYPES.map(({ type }) => type)),
      value: v.string(),
    }),
  ),
  v.check((entries) => metadataProblems(entries).every((problem) => !problem), 'Check the metadata'),
);
