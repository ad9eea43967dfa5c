import type { TSurveyLogic } from './types.js';

/** One logic condition against an answer, with the semantics of the 1.6 renderer. */
export function evaluateCondition(logic: TSurveyLogic, v: unknown): boolean {
  const x = logic.value as never;
  switch (logic.condition) {
    case 'equals':
      return (Array.isArray(v) && v.length === 1 && v.includes(x)) || (v == null ? undefined : String(v)) === x;
    case 'notEquals':
      return v !== x;
    case 'lessThan':
      return x !== undefined && (v as never) < x;
    case 'lessEqual':
      return x !== undefined && (v as never) <= x;
    case 'greaterThan':
      return x !== undefined && (v as never) > x;
    case 'greaterEqual':
      return x !== undefined && (v as never) >= x;
    case 'includesAll':
      return Array.isArray(v) && Array.isArray(x) && (x as unknown[]).every((i) => v.includes(i));
    case 'includesOne':
      if (!Array.isArray(x)) return false;
      return Array.isArray(v) ? (x as unknown[]).some((i) => v.includes(i)) : (x as unknown[]).includes(v);
    case 'accepted':
      return v === 'accepted';
    case 'clicked':
      return v === 'clicked';
    case 'submitted':
      if (typeof v === 'string') return v !== 'dismissed' && v !== '';
      return Array.isArray(v) ? v.length > 0 : typeof v === 'number';
    case 'skipped':
      return (Array.isArray(v) && v.length === 0) || v === '' || v == null || v === 'dismissed';
    case 'uploaded':
      return Array.isArray(v) ? v.length > 0 : v !== 'skipped' && v !== '' && v !== null;
    case 'notUploaded':
      return (Array.isArray(v) && v.length === 0) || v === '' || v === null || v === 'skipped';
    default:
      // `booked` is never matched by the 1.6 renderer either.
      return false;
  }
}
