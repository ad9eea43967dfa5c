import type { TJsState } from '../../domain/surveys/types.js';
import { raise } from './log.js';

const DAY = 86_400_000;
const days = (since: string): number => Math.floor(Math.abs(Date.now() - Date.parse(since)) / DAY);

/**
 * Client-side display filtering for anonymous visitors, from their local display history.
 * As in @formbricks/js 1.6.5, a survey's own recontact days count from its first local display.
 */
export const filter = (state: TJsState): TJsState => {
  const { displays, product } = state;
  if (!displays) return state;
  const latest = displays[displays.length - 1];
  const surveys = state.surveys.filter((s) => {
    const own = displays.filter((d) => d.surveyId === s.id);
    const o = s.displayOption;
    if (
      o === 'displayOnce'
        ? own[0]
        : o === 'displayMultiple'
          ? own.some((d) => d.responded)
          : o !== 'respondMultiple' && raise('Invalid displayOption')
    ) {
      return false;
    }
    // the survey's own recontact days against its own first display, else the product's against the latest display
    const [since, limit] = s.recontactDays !== null ? [own[0], s.recontactDays] : [latest, product.recontactDays];
    return !since || limit === null || days(since.createdAt) >= limit;
  });
  return { ...state, surveys };
};
