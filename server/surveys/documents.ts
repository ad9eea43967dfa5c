import type { TSurvey } from '../../domain/surveys/types.js';
import { surveyInputSchema } from '../../domain/surveys/schema.js';
import { parseInput } from './validation.js';

export {
  actionClassInputSchema,
  productSettingsSchema,
  type ActionClassInput,
  type ProductSettings,
} from '../../domain/surveys/schema.js';

/** A survey document as stored: every TSurvey key except the ones the row holds. */
export type SurveyDocument = Omit<TSurvey, 'id' | 'createdAt' | 'updatedAt' | 'environmentId' | 'name'>;

const ROW_KEYS = new Set(['id', 'createdAt', 'updatedAt', 'environmentId', 'name']);

/** Validates a survey given by the console, the management API or a seed file and fills every key the wire needs. */
export function parseSurveyInput(input: unknown): { name: string; document: SurveyDocument } {
  const survey = parseInput(surveyInputSchema, input);
  const document = Object.fromEntries(Object.entries(survey).filter(([key]) => !ROW_KEYS.has(key)));
  return {
    name: survey.name,
    document: { createdBy: null, ...document } as unknown as SurveyDocument,
  };
}
