import * as v from 'valibot';
import { FLAG_TYPES } from '../../../domain/flipt/types';
import { attachmentRule, keyRule, keyWithDotRule, requiredString } from '../../lib/validation';
import { metadataRule } from './metadata';

/** The flag form: the flag's own values, its metadata entries and its default variant ('' for none). */
export const flagSchema = v.object({
  key: keyRule,
  name: requiredString,
  description: v.string(),
  type: v.picklist(FLAG_TYPES),
  enabled: v.boolean(),
  defaultVariantId: v.string(),
  metadata: metadataRule,
});
export type FlagFormValues = v.InferInput<typeof flagSchema>;

export const variantSchema = v.object({
  key: keyWithDotRule,
  name: v.string(),
  description: v.string(),
  attachment: attachmentRule,
});
export type VariantValues = v.InferInput<typeof variantSchema>;
