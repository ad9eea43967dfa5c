import * as v from 'valibot';

/**
 * One top-level section of config.yml: its schema, its defaults, the keys of it Ensign refuses, and
 * the part of the resolved configuration it yields. Adding a section is a file exporting one of these,
 * listed in sections.ts; refusing or accepting a key of a section is a change to that section's file
 * alone. Every key is also a `FLIPT_` environment variable (environment.ts) with no further code.
 */
export interface ConfigSection<
  Key extends string,
  Schema extends v.GenericSchema,
  Part extends object,
  Defaults extends object = object,
> {
  /** The section's key at the top of config.yml. */
  key: Key;
  schema: Schema;
  /** Values of keys the section resolves when nothing sets them, written as in config.yml. */
  defaults?: Defaults;
  /**
   * Keys Ensign has no behaviour for, as full dotted paths (`*` stands for any name, an OIDC
   * provider's): setting one stops the start with the reason rather than being loaded and ignored.
   */
  refused?: Record<string, string>;
  /** The section's part of the configuration, from its settings merged (flag, environment, file, default). */
  resolve?: (settings: v.InferOutput<Schema> & Defaults) => Part;
}

export function defineSection<
  Key extends string,
  Schema extends v.GenericSchema,
  Part extends object,
  Defaults extends object = object,
>(section: ConfigSection<Key, Schema, Part, Defaults>): ConfigSection<Key, Schema, Part, Defaults> {
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

export const str = v.string();
export const bool = v.boolean();
export const num = v.number();
export const strList = v.array(v.string());
export const opt = v.optional;
