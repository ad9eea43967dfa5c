import { type Estimate, npsEstimate, ratingEstimate } from '../../domain/surveys/by-variant.js';
import type { ResponseFilter } from '../../domain/surveys/response-filter.js';
import type { SummaryMeta } from '../../domain/surveys/summary.js';
import type { TSurvey } from '../../domain/surveys/types.js';
import type { Database } from '../db/index.js';
import { badRequest } from './errors.js';
import { summarize } from './results.js';

export interface VariantScore {
  questionId: string;
  headline: string;
  type: 'nps' | 'rating';
  estimate: Estimate;
}

export interface VariantResults {
  /** A variant key, or `enabled` / `disabled` for a boolean flag. */
  value: string;
  /** Whether the survey is linked to this value today (a value it was linked to earlier may still have answers). */
  linked: boolean;
  meta: SummaryMeta;
  scores: VariantScore[];
}

/**
 * A linked survey's results per value of its flag, under the filter: the summary's figures, and each
 * NPS and rating question's score with its 95% interval (domain/surveys/by-variant.ts).
 */
export async function resultsByVariant(
  database: Database,
  survey: TSurvey,
  filter: ResponseFilter,
): Promise<{ flagKey: string; values: VariantResults[] }> {
  const link = survey.linkedFlag;
  if (!link) throw badRequest('the survey links no flag', { linkedFlag: 'is not set' });
  const recorded = await database.db
    .selectFrom('survey_displays')
    .select('flag_variant')
    .distinct()
    .where('survey_id', '=', survey.id)
    .where('flag_key', '=', link.flagKey)
    .execute();
  const values = [...new Set([...link.variants, ...recorded.flatMap((row) => row.flag_variant ?? [])])].filter(
    (value) => !filter.flagValues || filter.flagValues.includes(value),
  );
  const headlines = new Map(survey.questions.map((question) => [question.id, question.headline]));
  return {
    flagKey: link.flagKey,
    values: await Promise.all(
      values.map(async (value): Promise<VariantResults> => {
        const { meta, questions } = await summarize(database, survey, { ...filter, flagValues: [value] });
        const scores = questions.flatMap((entry): VariantScore[] => {
          if (entry.type !== 'nps' && entry.type !== 'rating') return [];
          const headline = headlines.get(entry.questionId) ?? entry.questionId;
          const estimate = entry.type === 'nps' ? npsEstimate(entry) : ratingEstimate(entry);
          return [{ questionId: entry.questionId, headline, type: entry.type, estimate }];
        });
        return { value, linked: link.variants.includes(value), meta, scores };
      }),
    ),
  };
}
