import * as v from 'valibot';
import { defineSection } from './section.js';

/** Flipt's `audit` section: accepted so a Flipt file loads, refused as soon as it sets anything. */
export const auditSection = defineSection({
  key: 'audit',
  schema: v.unknown(),
  refused: { audit: 'audit sinks are not implemented' },
});
