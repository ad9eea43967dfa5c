import * as v from 'valibot';
import { attachmentRule, keyRule, keyWithDotRule, requiredString } from '../../lib/validation';

export const flagSchema = v.object({ key: keyRule, name: requiredString });

export const variantSchema = v.object({ key: keyWithDotRule, attachment: attachmentRule });
