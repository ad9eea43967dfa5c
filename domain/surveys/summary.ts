/**
 * Formbricks 1.6's survey summary (its response utilities and summary components), as pure functions over
 * groups of alike responses. The server groups a survey's responses in the database (one row per distinct
 * answer pattern, with counts and time sums), so these never see a response one by one; a group of one
 * is a response, which is how the unit tests pin the formulas. A split by flag variant runs the same
 * functions once per variant's groups.
 */
import { evaluateCondition } from './logic.js';
import type { TResponseData, TResponseValue, TSurvey, TSurveyQuestion } from './types.js';

/** Time sums over a group: of the non-zero `ttc` values of a key (question id or `_total`), and how many there were. */
export interface TtcSum {
  sum: number;
  count: number;
}

/** Responses alike in everything the summary reads. */
export interface ResponseGroup {
  count: number;
  finished: boolean;
  /**
   * The group's answers. Answers the summary only tests for truth (open text, dates, files) may stand
   * for all of theirs (any non-empty text); a choice that is no label of the question is "other".
   */
  data: TResponseData;
  /** Ids of the unanswered questions the group's responses spent time on (ttc > 0): dismissed. */
  dismissed: readonly string[];
  ttc: Readonly<Record<string, TtcSum>>;
}

/** Percentages as Formbricks shows them: two decimals, 0 when there is nothing to divide by. */
export const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 10_000) / 100 : 0);
const ratio = (part: number, whole: number) => (whole > 0 ? part / whole : 0);
const round2 = (value: number) => Math.round(value * 100) / 100;

export interface SummaryMeta {
  displayCount: number;
  totalResponses: number;
  startsPercentage: number;
  completedResponses: number;
  completedPercentage: number;
  dropOffCount: number;
  dropOffPercentage: number;
  /** Milliseconds, the mean of the non-zero `ttc._total`. */
  ttcAverage: number;
}

export function summaryMeta(groups: readonly ResponseGroup[], displayCount: number): SummaryMeta {
  let totalResponses = 0;
  let completedResponses = 0;
  const ttc: TtcSum = { sum: 0, count: 0 };
  for (const group of groups) {
    totalResponses += group.count;
    if (group.finished) completedResponses += group.count;
    ttc.sum += group.ttc._total?.sum ?? 0;
    ttc.count += group.ttc._total?.count ?? 0;
  }
  const dropOffCount = totalResponses - completedResponses;
  return {
    displayCount,
    totalResponses,
    startsPercentage: percent(totalResponses, displayCount),
    completedResponses,
    completedPercentage: percent(completedResponses, displayCount),
    dropOffCount,
    dropOffPercentage: percent(dropOffCount, totalResponses),
    ttcAverage: round2(ratio(ttc.sum, ttc.count)),
  };
}

export interface QuestionDropOff {
  questionId: string;
  headline: string;
  /** Milliseconds, the mean of the question's non-zero ttc. */
  ttc: number;
  views: number;
  dropOffCount: number;
  dropOffPercentage: number;
}

/**
 * Views and drop-offs per question, walking each group's path through the survey as Formbricks 1.6 does
 * (logic jumps included). Without a welcome card, the first question's views are the displays.
 */
export function dropOff(
  survey: Pick<TSurvey, 'questions' | 'welcomeCard'>,
  groups: readonly ResponseGroup[],
  displayCount: number,
): QuestionDropOff[] {
  const { questions } = survey;
  const n = questions.length;
  const views = new Array<number>(n).fill(0);
  const drops = new Array<number>(n).fill(0);
  const ttc = new Map(questions.map((q) => [q.id, { sum: 0, count: 0 }]));
  const indexOf = (id: string) => questions.findIndex((q) => q.id === id);
  const jump = (question: TSurveyQuestion, value: TResponseValue | null | undefined): number | undefined => {
    for (const logic of question.logic ?? []) {
      if (logic.destination && evaluateCondition(logic, value)) return indexOf(logic.destination);
    }
    return undefined;
  };

  for (const group of groups) {
    const { count, data, finished } = group;
    for (const [id, sums] of ttc) {
      sums.sum += group.ttc[id]?.sum ?? 0;
      sums.count += group.ttc[id]?.count ?? 0;
    }
    let i = 0;
    while (i < n) {
      const question = questions[i];
      if (!question) break;
      if (!question.required && !data[question.id]) {
        views[i] += count;
        if (i === n - 1 && !finished) {
          drops[i] += count;
          break;
        }
        i = jump(question, data[question.id] ?? null) ?? i + 1;
        continue;
      }
      if ((data[question.id] === undefined && !finished) || (question.required && !data[question.id])) {
        drops[i] += count;
        views[i] += count;
        break;
      }
      views[i] += count;
      const next = jump(question, data[question.id]) ?? i + 1;
      const nextQuestion = questions[next];
      // Formbricks counts a drop-off at the next question, even past the end (which then adds nothing).
      if (!(nextQuestion && data[nextQuestion.id]) && !finished) {
        if (next >= 0 && next < n) {
          drops[next] += count;
          views[next] += count;
        }
        break;
      }
      i = next;
    }
  }

  const dropPercentages = new Array<number>(n).fill(0);
  if (n > 0) {
    if (!survey.welcomeCard.enabled) {
      drops[0] = displayCount - views[0];
      dropPercentages[0] = views[0] - displayCount >= 0 ? 0 : percent(displayCount - views[0], displayCount);
      views[0] = displayCount;
    } else {
      dropPercentages[0] = percent(drops[0], views[0]);
    }
  }
  for (let i = 1; i < n; i++) dropPercentages[i] = percent(drops[i], views[i]);

  return questions.map((question, i) => {
    const sums = ttc.get(question.id)!;
    return {
      questionId: question.id,
      headline: question.headline,
      ttc: round2(ratio(sums.sum, sums.count)),
      views: views[i],
      dropOffCount: drops[i],
      dropOffPercentage: dropPercentages[i],
    };
  });
}

export interface Share {
  count: number;
  percentage: number;
}

export interface NpsSummary {
  type: 'nps';
  questionId: string;
  total: number;
  promoters: Share;
  passives: Share;
  detractors: Share;
  dismissed: Share;
  /** -100..100, two decimals. */
  score: number;
}

/** NPS: 9-10 promoters, 7-8 passives, 0-6 detractors; the dismissed (time on it, no number) count in the total. */
export function npsSummary(questionId: string, groups: readonly ResponseGroup[]): NpsSummary {
  let promoters = 0;
  let passives = 0;
  let detractors = 0;
  let dismissed = 0;
  for (const { count, data, dismissed: skipped } of groups) {
    const value = data[questionId];
    if (typeof value === 'number') {
      if (value >= 9) promoters += count;
      else if (value >= 7) passives += count;
      else detractors += count;
    } else if (skipped.includes(questionId)) dismissed += count;
  }
  const total = promoters + passives + detractors + dismissed;
  const share = (count: number): Share => ({ count, percentage: percent(count, total) });
  return {
    type: 'nps',
    questionId,
    total,
    promoters: share(promoters),
    passives: share(passives),
    detractors: share(detractors),
    dismissed: share(dismissed),
    score: round2(ratio(promoters - detractors, total) * 100),
  };
}

export interface RatingSummary {
  type: 'rating';
  questionId: string;
  /** Responses that rated or dismissed it. */
  total: number;
  /** One entry per rating from 1 to the range, percentages of the total. */
  values: (Share & { rating: number })[];
  /** Mean rating, dismissed excluded. */
  average: number;
  dismissed: Share;
}

export function ratingSummary(questionId: string, range: number, groups: readonly ResponseGroup[]): RatingSummary {
  const counts = new Map<number, number>();
  for (let rating = 1; rating <= range; rating++) counts.set(rating, 0);
  let rated = 0;
  let sum = 0;
  let dismissed = 0;
  for (const { count, data, dismissed: skipped } of groups) {
    const value = data[questionId];
    if (typeof value === 'number') {
      rated += count;
      sum += value * count;
      counts.set(value, (counts.get(value) ?? 0) + count);
    } else if (skipped.includes(questionId)) dismissed += count;
  }
  const total = rated + dismissed;
  return {
    type: 'rating',
    questionId,
    total,
    values: [...counts].map(([rating, count]) => ({ rating, count, percentage: percent(count, total) })),
    average: round2(ratio(sum, rated)),
    dismissed: { count: dismissed, percentage: percent(dismissed, total) },
  };
}

export interface CtaSummary {
  type: 'cta';
  questionId: string;
  /** Clicked plus dismissed: click-through is not per display. */
  total: number;
  clicked: Share;
  dismissed: Share;
}

export function ctaSummary(questionId: string, groups: readonly ResponseGroup[]): CtaSummary {
  let clicked = 0;
  let dismissed = 0;
  for (const { count, data } of groups) {
    const value = data[questionId];
    if (value === 'clicked') clicked += count;
    else if (value === 'dismissed') dismissed += count;
  }
  const total = clicked + dismissed;
  return {
    type: 'cta',
    questionId,
    total,
    clicked: { count: clicked, percentage: percent(clicked, total) },
    dismissed: { count: dismissed, percentage: percent(dismissed, total) },
  };
}

export interface AcceptedSummary {
  type: 'consent' | 'cal';
  questionId: string;
  total: number;
  /** Consent accepted, or a call booked. */
  accepted: Share;
  /** Skipped, or on screen with no answer. */
  dismissed: Share;
}

/** Consent (accepted) and cal (booked) against those who skipped or dismissed it. */
export function acceptedSummary(
  type: 'consent' | 'cal',
  questionId: string,
  groups: readonly ResponseGroup[],
): AcceptedSummary {
  const yes = type === 'consent' ? 'accepted' : 'booked';
  let accepted = 0;
  let dismissed = 0;
  for (const { count, data, dismissed: skipped } of groups) {
    const value = data[questionId];
    if (value === yes) accepted += count;
    else if (value === 'dismissed' || value === 'skipped' || skipped.includes(questionId)) dismissed += count;
  }
  const total = accepted + dismissed;
  return {
    type,
    questionId,
    total,
    accepted: { count: accepted, percentage: percent(accepted, total) },
    dismissed: { count: dismissed, percentage: percent(dismissed, total) },
  };
}

export interface ChoiceSummary {
  type: 'multipleChoiceSingle' | 'multipleChoiceMulti' | 'pictureSelection';
  questionId: string;
  /** Responses that chose anything; each choice's percentage is of these (a multi choice's add up past 100). */
  total: number;
  /** Per choice (its label; a picture's id), then "other" when the question has it. */
  choices: (Share & { value: string; other?: true })[];
}

/**
 * Counts per choice. An answer that is no choice (an "other" text) counts for the question's "other"
 * choice, when it has one; the texts themselves are listed apart, as samples.
 */
export function choiceSummary(
  question: { id: string; type: ChoiceSummary['type']; choices: readonly { id: string; label?: string }[] },
  groups: readonly ResponseGroup[],
): ChoiceSummary {
  const byPicture = question.type === 'pictureSelection';
  const otherChoice = byPicture ? undefined : question.choices.find((choice) => choice.id === 'other');
  const counts = new Map<string, number>();
  for (const choice of question.choices) {
    if (choice !== otherChoice) counts.set(byPicture ? choice.id : (choice.label ?? ''), 0);
  }
  let others = 0;
  let total = 0;
  for (const { count, data } of groups) {
    const value = data[question.id];
    const values = Array.isArray(value) ? value : typeof value === 'string' && value !== '' ? [value] : [];
    if (values.length === 0) continue;
    total += count;
    for (const item of values) {
      const known = counts.get(item);
      if (known !== undefined) counts.set(item, known + count);
      else if (otherChoice) others += count;
    }
  }
  const choices: ChoiceSummary['choices'] = [...counts].map(([value, count]) => ({
    value,
    count,
    percentage: percent(count, total),
  }));
  if (otherChoice) {
    choices.push({
      value: otherChoice.label ?? 'Other',
      count: others,
      percentage: percent(others, total),
      other: true,
    });
  }
  return { type: question.type, questionId: question.id, total, choices };
}

/** How many responses answered a question the summary lists samples of (open text, date, file, hidden field). */
export function answeredCount(questionId: string, groups: readonly ResponseGroup[]): number {
  let answered = 0;
  for (const { count, data } of groups) {
    const value = data[questionId];
    if (value !== undefined && value !== '' && value !== 'skipped' && !(Array.isArray(value) && value.length === 0)) {
      answered += count;
    }
  }
  return answered;
}

export type QuestionSummary =
  | NpsSummary
  | RatingSummary
  | CtaSummary
  | AcceptedSummary
  | ChoiceSummary
  | { type: 'openText' | 'date' | 'fileUpload'; questionId: string; total: number };

/** The summary of each question, in the survey's order. */
export function questionSummaries(
  questions: readonly TSurveyQuestion[],
  groups: readonly ResponseGroup[],
): QuestionSummary[] {
  return questions.map((question): QuestionSummary => {
    switch (question.type) {
      case 'nps':
        return npsSummary(question.id, groups);
      case 'rating':
        return ratingSummary(question.id, question.range, groups);
      case 'cta':
        return ctaSummary(question.id, groups);
      case 'consent':
      case 'cal':
        return acceptedSummary(question.type, question.id, groups);
      case 'multipleChoiceSingle':
      case 'multipleChoiceMulti':
      case 'pictureSelection':
        return choiceSummary(question, groups);
      default:
        return { type: question.type, questionId: question.id, total: answeredCount(question.id, groups) };
    }
  });
}

export interface SurveySummary {
  meta: SummaryMeta;
  dropOff: QuestionDropOff[];
  questions: QuestionSummary[];
}

export function surveySummary(
  survey: Pick<TSurvey, 'questions' | 'welcomeCard'>,
  groups: readonly ResponseGroup[],
  displayCount: number,
): SurveySummary {
  return {
    meta: summaryMeta(groups, displayCount),
    dropOff: dropOff(survey, groups, displayCount),
    questions: questionSummaries(survey.questions, groups),
  };
}
