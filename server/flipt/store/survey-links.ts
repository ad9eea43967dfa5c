import { invalid } from '../errors.js';
import type { Executor } from '../../db/executor.js';

/**
 * Refuses deleting a flag or a segment that surveys of the namespace link (feedback by variant), naming
 * them, as a segment used by a rule is refused: the surveys would silently stop showing.
 */
export async function refuseIfSurveysLink(
  executor: Executor,
  namespaceKey: string,
  link: { flagKey: string } | { segmentKey: string },
): Promise<void> {
  const [column, key, noun] =
    'flagKey' in link
      ? (['surveys.linked_flag_key', link.flagKey, 'flag'] as const)
      : (['surveys.segment_key', link.segmentKey, 'segment'] as const);
  const rows = await executor.db
    .selectFrom('surveys')
    .innerJoin('survey_environments', 'survey_environments.id', 'surveys.environment_id')
    .innerJoin('survey_products', 'survey_products.id', 'survey_environments.product_id')
    .select('surveys.name')
    .where('survey_products.namespace_key', '=', namespaceKey)
    .where(column, '=', key)
    .orderBy('surveys.name')
    .execute();
  if (rows.length > 0)
    throw invalid(
      `${noun} "${namespaceKey}/${key}" is linked to surveys: ${rows.map((row) => `"${row.name}"`).join(', ')}`,
    );
}
