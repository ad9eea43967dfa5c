import * as v from 'valibot';
import { analyticsSection } from './analytics.js';
import { auditSection } from './audit.js';
import { authenticationSection } from './authentication.js';
import { corsSection } from './cors.js';
import { dbSection } from './db.js';
import { fliptOnlySections } from './flipt-only.js';
import { logSection } from './log.js';
import { metaSection } from './meta.js';
import { metricsSection } from './metrics.js';
import { defineSection } from './section.js';
import { serverSection } from './server.js';
import { storageSection } from './storage.js';
import { surveysSection } from './surveys.js';
import { tracingSection } from './tracing.js';
import { uiSection } from './ui.js';

const versionSection = defineSection({ key: 'version', schema: v.picklist(['1.0'], 'must be "1.0"') });

/** Every section of config.yml, in the order their keys are checked and resolved. */
export const SECTIONS = [
  versionSection,
  serverSection,
  dbSection,
  storageSection,
  authenticationSection,
  uiSection,
  analyticsSection,
  corsSection,
  logSection,
  surveysSection,
  auditSection,
  ...fliptOnlySections,
  metaSection,
  metricsSection,
  tracingSection,
] as const;

type Section = (typeof SECTIONS)[number];

/** config.yml as validated. */
export type FileConfig = { [S in Section as S['key']]?: v.InferOutput<S['schema']> };

type PartOf<S> = S extends { resolve?: (settings: never) => infer Part } ? Part : never;
type Intersection<U> = (U extends unknown ? (part: U) => void : never) extends (part: infer I) => void ? I : never;

/** What the sections resolve, together (see each section's file). */
export type SectionsConfig = Intersection<PartOf<Section>>;

export const fileSchema = v.strictObject(
  Object.fromEntries(SECTIONS.map((section) => [section.key, v.optional(section.schema)])),
) as v.GenericSchema<unknown, FileConfig>;

/**
 * Keys of Flipt's config.yml that Ensign has no behaviour for: a file that sets one is refused,
 * naming it, rather than loaded and silently ignored. `*` stands for any name (an OIDC provider's).
 */
export const UNSUPPORTED_KEYS: Record<string, string> = Object.assign(
  {},
  ...SECTIONS.map((section) => section.refused ?? {}),
);
