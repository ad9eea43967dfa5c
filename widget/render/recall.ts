import { escapeHtml } from './sanitize.js';
import type { Answer } from './logic.js';

const MONTHS = 'January February March April May June July August September October November December'.split(' ');
const DAYS = 'Sunday Monday Tuesday Wednesday Thursday Friday Saturday'.split(' ');

function ordinal(day: number): string {
  const digits = day < 30 ? day % 20 : day % 30;
  return ['th', 'st', 'nd', 'rd'][digits <= 3 ? digits : 0];
}

/** "2024-01-05" (or "01-05-2024") as "Friday, January 5th, 2024"; other text unchanged. */
function formatIfDate(text: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text) ?? /^(\d{2})-(\d{2})-(\d{4})$/.exec(text);
  if (!m) return text;
  const [y, mo, d] = m[1].length === 4 ? [m[1], m[2], m[3]] : [m[3], m[1], m[2]];
  const date = new Date(+y, +mo - 1, +d);
  if (Number.isNaN(date.getTime())) return text;
  const day = date.getDate();
  return `${DAYS[date.getDay()]}, ${MONTHS[date.getMonth()]} ${day}${ordinal(day)}, ${date.getFullYear()}`;
}

/**
 * Replaces `#recall:<questionId>/fallback:<text>#` with the earlier answer (HTML-escaped, since the
 * result is rendered as sanitised HTML) or with the fallback, whose literal "nbsp" means a space.
 */
export function recall(text: string, answers: Record<string, Answer>): string {
  return text.replace(/#recall:([^/#]+)\/fallback:([^#]*)#/g, (_, id: string, fallback: string) => {
    const answer = answers[id];
    if (answer === undefined || answer === '' || (Array.isArray(answer) && answer.length === 0)) {
      return fallback.replaceAll('nbsp', ' ');
    }
    return escapeHtml(Array.isArray(answer) ? answer.join(', ') : formatIfDate(String(answer)));
  });
}
