import { evaluateCondition } from '../../domain/surveys/logic.js';
import type { TResponseValue, TSurveyQuestion } from '../../domain/surveys/types.js';

export type Answer = TResponseValue | undefined;

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
