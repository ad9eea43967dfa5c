import type { TActionClassPageUrlRule, TPlacement } from '../../../domain/surveys/types';

export const PLACEMENT_LABELS: Record<TPlacement, string> = {
  bottomRight: 'Bottom right',
  bottomLeft: 'Bottom left',
  topRight: 'Top right',
  topLeft: 'Top left',
  center: 'Centre',
};

export const URL_RULE_LABELS: Record<TActionClassPageUrlRule, string> = {
  exactMatch: 'Exactly matches',
  contains: 'Contains',
  startsWith: 'Starts with',
  endsWith: 'Ends with',
  notMatch: 'Does not exactly match',
  notContains: 'Does not contain',
};
