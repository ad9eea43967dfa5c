import type { TResponseValue, TSurveyLogic, TSurveyQuestion } from '../../domain/surveys/types.js';

export type Answer = TResponseValue | undefined;

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

/** The id to show after `question` was answered with `value`: a logic destination, the next question or "end". */
export function nextQuestionId(questions: TSurveyQuestion[], question: TSurveyQuestion, value: Answer): string {
  const isChoice = question.type === 'multipleChoiceSingle' || question.type === 'multipleChoiceMulti';
  for (const rule of question.logic ?? []) {
    if (!rule.destination) continue;
    // An answer that is no choice label (an "other" text, or any multi-select array) is also tested as "Other".
    if (isChoice && !question.choices.some((c) => c.label === value) && evaluateCondition(rule, 'Other')) {
      return rule.destination;
    }
    if (evaluateCondition(rule, value)) return rule.destination;
  }
  return questions[questions.indexOf(question) + 1]?.id ?? 'end';
}

/** The progress "element index" of question i, which accounts for logic jumps. */
function elementIndex(questions: TSurveyQuestion[], i: number): number {
  const middle = Math.floor(questions.length / 2);
  const destinations = (questions[i]?.logic ?? []).map((l) => l.destination);
  let furthest = -1;
  questions.forEach((q, j) => {
    if (destinations.includes(q.id)) furthest = j;
  });
  let e = i || 0.5;
  if (furthest > 0) e = Math.min(middle, furthest - 1);
  if (destinations.includes('end')) e = middle;
  return e;
}

/** Progress (0..1) shown while each question is on screen. */
export function progressSteps(questions: TSurveyQuestion[]): number[] {
  let p = 0;
  return questions.map((_, i) => {
    const e = elementIndex(questions, i) / questions.length;
    if (e > p) p = e;
    else if (p + 0.1 <= 1) p += 0.1;
    return p;
  });
}

/** The welcome card's "Takes ..." estimate: 15 s per question, scaled by the first question's progress index. */
export function timeToFinish(questions: TSurveyQuestion[]): string {
  const idx = elementIndex(questions, 0);
  const seconds = (questions.length / (idx === 0.5 ? 1 : idx)) * 15;
  if (seconds > 360) return '6+ minutes';
  const minutes = Math.floor(seconds / 60);
  if (seconds % 60 > 0) return minutes === 0 ? 'less than 1 minute' : `less than ${minutes + 1} minutes`;
  return `${minutes} minutes`;
}
