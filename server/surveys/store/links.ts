/** Feedback by variant: a survey's links to its namespace's flags and segments, checked on every save. */
import { BOOLEAN_LINK_VALUES, type FlagAssignment } from '../../../domain/surveys/eligibility.js';
import type { Executor } from '../../db/executor.js';
import type { SurveyDocument } from '../documents.js';
import { badRequest } from '../errors.js';

/** The namespace a survey environment belongs to (through its product). */
export async function namespaceOfEnvironment({ db }: Executor, environmentId: string): Promise<string> {
  const row = await db
    .selectFrom('survey_environments')
    .innerJoin('survey_products', 'survey_products.id', 'survey_environments.product_id')
    .select('survey_products.namespace_key')
    .where('survey_environments.id', '=', environmentId)
    .executeTakeFirst();
  return row?.namespace_key ?? 'default';
}

/**
 * Refuses a link to a flag, variant or segment its namespace does not have, with a 400 naming it: a
 * survey linked to nothing would silently never show.
 */
export async function checkLinks(executor: Executor, environmentId: string, document: SurveyDocument): Promise<void> {
  const { linkedFlag, segmentKey } = document;
  if (!linkedFlag && !segmentKey) return;
  const namespaceKey = await namespaceOfEnvironment(executor, environmentId);
  if (linkedFlag) {
    const flag = await executor.db
      .selectFrom('flags')
      .select('type')
      .where('namespace_key', '=', namespaceKey)
      .where('key', '=', linkedFlag.flagKey)
      .executeTakeFirst();
    if (!flag)
      throw badRequest(`flag "${linkedFlag.flagKey}" not found in namespace "${namespaceKey}"`, {
        'linkedFlag.flagKey': linkedFlag.flagKey,
      });
    const known: readonly string[] =
      flag.type === 'BOOLEAN_FLAG_TYPE'
        ? BOOLEAN_LINK_VALUES
        : (
            await executor.db
              .selectFrom('variants')
              .select('key')
              .where('namespace_key', '=', namespaceKey)
              .where('flag_key', '=', linkedFlag.flagKey)
              .execute()
          ).map((variant) => variant.key);
    const unknown = linkedFlag.variants.find((variant) => !known.includes(variant));
    if (unknown !== undefined)
      throw badRequest(
        flag.type === 'BOOLEAN_FLAG_TYPE'
          ? `"${unknown}" is not a value of boolean flag "${linkedFlag.flagKey}": use enabled or disabled`
          : `variant "${unknown}" not found in flag "${linkedFlag.flagKey}"`,
        { 'linkedFlag.variants': unknown },
      );
  }
  if (segmentKey) {
    const segment = await executor.db
      .selectFrom('segments')
      .select('key')
      .where('namespace_key', '=', namespaceKey)
      .where('key', '=', segmentKey)
      .executeTakeFirst();
    if (!segment) throw badRequest(`segment "${segmentKey}" not found in namespace "${namespaceKey}"`, { segmentKey });
  }
}

/** A display's or response's flag assignment as its three columns (all null without one). */
export function assignmentColumns(assignment: FlagAssignment | null | undefined) {
  return {
    flag_key: assignment?.flagKey ?? null,
    flag_variant: assignment?.variant ?? null,
    flag_reason: assignment?.reason ?? null,
  };
}

/** The flag assignment its three columns hold. */
export function assignmentOf(row: {
  flag_key: string | null;
  flag_variant: string | null;
  flag_reason: string | null;
}): FlagAssignment | null {
  if (row.flag_key === null) return null;
  return {
    flagKey: row.flag_key,
    variant: row.flag_variant ?? '',
    reason: (row.flag_reason ?? '') as FlagAssignment['reason'],
  };
}
