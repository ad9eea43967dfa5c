import type { TProduct, TSurvey } from '../../domain/surveys/types.js';
import { needsIdentity } from '../../domain/surveys/eligibility.js';
import type { VisitorDisplay } from './store/index.js';

const DAY_MS = 86_400_000;
const daysSince = (iso: string, now: number) => Math.floor(Math.abs(now - Date.parse(iso)) / DAY_MS);

/** A web survey in progress whose close date, if any, has not passed (Formbricks closes those by a daily job). */
export function isRunning(survey: TSurvey, now: number): boolean {
  return (
    survey.status === 'inProgress' &&
    survey.type === 'web' &&
    !(survey.closeOnDate && Date.parse(survey.closeOnDate) <= now)
  );
}

/** What the in-app sync sends anyone: running web surveys without segment filters, flag link or Flipt segment. */
export function isPublicSurvey(survey: TSurvey, now = Date.now()): boolean {
  return isRunning(survey, now) && (!survey.segment || survey.segment.filters.length === 0) && !needsIdentity(survey);
}

export interface Visitor {
  userId: string;
  attributes: Record<string, string>;
  device: 'phone' | 'desktop';
  /** The person's displays, newest first. */
  displays: VisitorDisplay[];
}

/**
 * The surveys an identified user may see: display option against the person's displays,
 * then recontact days (the survey's own, else the product's), then segment filters.
 */
export function surveysForVisitor(
  surveys: TSurvey[],
  product: TProduct,
  visitor: Visitor,
  now = Date.now(),
): TSurvey[] {
  const candidates = surveys.filter((survey) => {
    if (!isRunning(survey, now)) return false;
    const ofSurvey = visitor.displays.filter((display) => display.surveyId === survey.id);
    if (survey.displayOption === 'displayOnce' && ofSurvey.length > 0) return false;
    if (survey.displayOption === 'displayMultiple' && ofSurvey.some((display) => display.responseId !== null))
      return false;
    if (visitor.displays.length === 0) return true;
    if (survey.recontactDays !== null)
      return ofSurvey.length === 0 || daysSince(ofSurvey[0].createdAt, now) >= survey.recontactDays;
    if (product.recontactDays !== null) return daysSince(visitor.displays[0].createdAt, now) >= product.recontactDays;
    return true;
  });
  if (!candidates.some((survey) => (survey.segment?.filters.length ?? 0) > 0)) return candidates;
  return candidates.filter((survey) => !survey.segment || evaluateFilters(survey.segment.filters, visitor));
}

/**
 * Whether the visitor is in the survey's 1.6 segment (one without filters holds everyone): today's clients
 * read this membership from the user state's `segments`.
 */
export function inFilterSegment(survey: TSurvey, visitor: Omit<Visitor, 'displays'>): boolean {
  const filters = survey.segment?.filters ?? [];
  return filters.length === 0 || evaluateFilters(filters, visitor);
}

interface FilterItem {
  connector?: 'and' | 'or' | null;
  resource?: unknown;
}

interface Filter {
  root?: { type?: string; attributeClassName?: string; personIdentifier?: string; deviceType?: string };
  value?: string | number;
  qualifier?: { operator?: string };
}

/**
 * Folds the filter list left to right by each item's connector, without precedence, as Formbricks does;
 * an empty list is false. Attribute, person (userId) and device filters are evaluated; action and nested
 * segment filters need history this server does not keep per segment and count as not matching.
 */
function evaluateFilters(items: unknown[], visitor: Omit<Visitor, 'displays'>): boolean {
  if (items.length === 0) return false;
  let result = false;
  items.forEach((raw, index) => {
    const item = raw as FilterItem;
    const value = Array.isArray(item.resource)
      ? evaluateFilters(item.resource, visitor)
      : evaluateFilter(item.resource as Filter, visitor);
    if (index === 0) result = value;
    else result = item.connector === 'or' ? result || value : result && value;
  });
  return result;
}

function evaluateFilter(filter: Filter | undefined, visitor: Omit<Visitor, 'displays'>): boolean {
  const operator = filter?.qualifier?.operator ?? 'equals';
  switch (filter?.root?.type) {
    case 'attribute':
      return compare(visitor.attributes[filter.root.attributeClassName ?? ''], operator, filter.value);
    case 'person':
      return filter.root.personIdentifier === 'userId' && compare(visitor.userId, operator, filter.value);
    case 'device':
      return compare(visitor.device, operator, filter.value ?? filter.root.deviceType);
    default:
      return false;
  }
}

function compare(actual: string | undefined, operator: string, expected: string | number | undefined): boolean {
  const present = actual !== undefined && actual !== '';
  if (operator === 'isSet') return present;
  if (operator === 'isNotSet') return !present;
  if (!present || expected === undefined) return false;
  const wanted = String(expected);
  switch (operator) {
    case 'equals':
      return actual === wanted;
    case 'notEquals':
      return actual !== wanted;
    case 'lessThan':
      return Number(actual) < Number(expected);
    case 'lessEqual':
      return Number(actual) <= Number(expected);
    case 'greaterThan':
      return Number(actual) > Number(expected);
    case 'greaterEqual':
      return Number(actual) >= Number(expected);
    case 'contains':
      return actual.includes(wanted);
    case 'doesNotContain':
      return !actual.includes(wanted);
    case 'startsWith':
      return actual.startsWith(wanted);
    case 'endsWith':
      return actual.endsWith(wanted);
    default:
      return false;
  }
}
