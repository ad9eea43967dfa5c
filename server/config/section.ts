import * as v from 'valibot';

/**
 * One top-level section of config.yml: its schema, the keys of it Ensign refuses, and the part of
 * the resolved configuration it yields. Adding a section is a file exporting one of these, listed in
 * sections.ts; refusing or accepting a key of a section is a change to that section's file alone.
 */
export interface ConfigSection<Key extends string, Schema extends v.GenericSchema, Part extends object> {
  /** The section's key at the top of config.yml. */
  key: Key;
  schema: Schema;
  /**
   * Keys Ensign has no behaviour for, as full dotted paths (`*` stands for any name, an OIDC
   * provider's): a file that sets one is refused with the reason rather than loaded and ignored.
   */
  refused?: Record<string, string>;
  /** The section's part of the configuration, from the file's section (`{}` when absent). */
  resolve?: (file: v.InferOutput<Schema>, inputs: LoadInputs) => Part;
}

export function defineSection<Key extends string, Schema extends v.GenericSchema, Part extends object>(
  section: ConfigSection<Key, Schema, Part>,
): ConfigSection<Key, Schema, Part> {
  return section;
}

/** Command-line settings; undefined means "not given". */
export interface FlagSettings {
  port?: string;
  host?: string;
  db?: string;
  config?: string;
  storage?: string;
  storagePath?: string;
  surveys?: string;
  logLevel?: string;
  workers?: string;
}

export interface LoadInputs {
  flags: FlagSettings;
  env: NodeJS.ProcessEnv;
}

/** The first defined of flag, environment variable and file value. */
export const pick = <T>(flag: T | undefined, envValue: T | undefined, fileValue: T | undefined): T | undefined =>
  flag ?? envValue ?? fileValue;

export const str = v.string();
export const bool = v.boolean();
export const num = v.number();
export const strList = v.array(v.string());
export const opt = v.optional;
