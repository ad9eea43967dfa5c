import * as v from 'valibot';
import { defineSection, opt, str } from './section.js';

// Ensign neither checks for updates nor sends telemetry: a file may say so, not ask for them.
export const metaSection = defineSection({
  key: 'meta',
  schema: v.strictObject({
    check_for_updates: opt(v.literal(false, 'must be false: Ensign never checks for updates')),
    telemetry_enabled: opt(v.literal(false, 'must be false: Ensign sends no telemetry')),
    state_directory: opt(str),
  }),
  refused: { 'meta.state_directory': 'Ensign keeps no state outside its database' },
});
