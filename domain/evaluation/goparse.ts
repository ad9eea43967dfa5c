/**
 * Value parsing with the rules of the Go standard library functions Flipt's evaluator uses, so the
 * same context values match here as there: `strings.TrimSpace`, `strconv.ParseFloat(s, 64)`,
 * `strconv.ParseBool`, `time.Parse` with `time.RFC3339` and `time.DateOnly`, and `json.Unmarshal`
 * into `[]string` / `[]float64`. Every parser returns `undefined` where Go returns an error.
 */

/**
 * Go's `unicode.IsSpace` (JavaScript's `trim` differs: it strips U+FEFF and keeps U+0085). Trimming
 * and blank checks walk the string: a regular expression anchored at the end (`\s+$`) retries at every
 * position of a long run of spaces, quadratic in the value's length.
 */
function isGoSpace(code: number): boolean {
  if (code <= 0xff) return (code >= 0x09 && code <= 0x0d) || code === 0x20 || code === 0x85 || code === 0xa0;
  return (
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

export function goTrimSpace(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && isGoSpace(value.charCodeAt(start))) start++;
  while (end > start && isGoSpace(value.charCodeAt(end - 1))) end--;
  return start === 0 && end === value.length ? value : value.slice(start, end);
}

export function goIsBlank(value: string): boolean {
  for (let i = 0; i < value.length; i++) if (!isGoSpace(value.charCodeAt(i))) return false;
  return true;
}

const GO_TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const GO_FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

export function parseGoBool(value: string): boolean | undefined {
  if (GO_TRUE.has(value)) return true;
  if (GO_FALSE.has(value)) return false;
  return undefined;
}

const INFINITY = /^[+-]?(inf|infinity)$/i;
// Digits may be separated by single underscores (checked by `underscoresOk`, as Go's underscoreOK does).
// Each grammar reads a string one way only (the fraction's digits follow a required dot), so a
// failing match backtracks linearly, never over every split of a long run of digits.
const DECIMAL = /^[+-]?(?:[0-9_]+(?:\.[0-9_]*)?|\.[0-9_]+)(?:[eE][+-]?[0-9][0-9_]*)?$/;
const HEX = /^([+-]?)0[xX]([0-9a-fA-F_]*)(?:\.([0-9a-fA-F_]*))?[pP]([+-]?[0-9][0-9_]*)$/;

/** The common case, checked first: plain decimal digits, no underscores, no exponent. */
const PLAIN = /^[+-]?[0-9]+(?:\.[0-9]*)?$/;

export function parseGoFloat(value: string): number | undefined {
  if (PLAIN.test(value)) {
    const parsed = Number(value);
    return Number.isFinite(parsed) ? parsed : undefined;
  }
  if (INFINITY.test(value)) return value.startsWith('-') ? -Infinity : Infinity;
  if (/^nan$/i.test(value)) return NaN;
  const hex = HEX.exec(value);
  if (hex) return underscoresOk(value, true) ? hexFloat(hex) : undefined;
  if (!DECIMAL.test(value) || !/[0-9]/.test(value.replace(/[eE].*$/, ''))) return undefined;
  if (value.includes('_') && !underscoresOk(value, false)) return undefined;
  const parsed = Number(value.replace(/_/g, ''));
  // Go reports a range error where the nearest float64 is infinite.
  return Number.isFinite(parsed) ? parsed : undefined;
}

/** An underscore must sit between two digits (or between the `0x` prefix and a digit). */
function underscoresOk(value: string, hex: boolean): boolean {
  let text = value.replace(/^[+-]/, '');
  let previous: 'start' | 'digit' | 'underscore' | 'other' = 'start';
  if (hex) {
    text = text.slice(2);
    previous = 'digit';
  }
  const digit = hex ? /[0-9a-fA-F]/ : /[0-9]/;
  for (const char of text) {
    if (digit.test(char)) previous = 'digit';
    else if (char === '_') {
      if (previous !== 'digit') return false;
      previous = 'underscore';
    } else {
      if (previous === 'underscore') return false;
      previous = 'other';
    }
  }
  return previous !== 'underscore';
}

/** A hexadecimal float `0xMANT.FRACpEXP`, rounded to nearest-even as Go does. */
function hexFloat([, sign, whole, fraction = '', exponent]: RegExpExecArray): number | undefined {
  const intDigits = whole.replace(/_/g, '');
  const fracDigits = fraction.replace(/_/g, '');
  if (intDigits === '' && fracDigits === '') return undefined;
  let mantissa = BigInt(`0x${intDigits}${fracDigits}`);
  let exp = Number(exponent.replace(/_/g, '')) - 4 * fracDigits.length;
  const negative = sign === '-';
  if (mantissa === 0n) return negative ? -0 : 0;
  // Keep 53 significant bits (fewer for subnormals), rounding half to even.
  const bits = mantissa.toString(2).length;
  const top = bits - 1 + exp; // the exponent of the leading bit
  const precision = top >= -1022 ? 53 : 53 - (-1022 - top);
  const drop = bits - precision;
  if (drop > 0) {
    const shift = BigInt(drop);
    const rest = mantissa & ((1n << shift) - 1n);
    const half = 1n << (shift - 1n);
    mantissa >>= shift;
    if (rest > half || (rest === half && (mantissa & 1n) === 1n)) mantissa += 1n;
    exp += drop;
  }
  // Two steps, so a tiny power of two does not underflow before the multiplication.
  const result = Number(mantissa) * 2 ** Math.trunc(exp / 2) * 2 ** (exp - Math.trunc(exp / 2));
  if (!Number.isFinite(result)) return undefined;
  return negative ? -result : result;
}

/** An instant: seconds since the Unix epoch plus nanoseconds (a float64 cannot hold both). */
export interface Instant {
  seconds: number;
  nanos: number;
}

export function compareInstants(a: Instant, b: Instant): number {
  return a.seconds !== b.seconds ? a.seconds - b.seconds : a.nanos - b.nanos;
}

// time.Parse(time.RFC3339, v) accepts what its fast path accepts plus what the layout parser does:
// a one-digit hour, a comma before the fraction, and zone offsets up to 24:60.
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{1,2}):(\d{2}):(\d{2})(?:[.,](\d+))?(?:Z|([+-])(\d{2}):(\d{2}))$/;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Go's `time.Parse(time.RFC3339, v)`, else `time.Parse(time.DateOnly, v)` (midnight UTC). */
export function parseGoDateTime(value: string): Instant | undefined {
  const full = RFC3339.exec(value);
  if (full) {
    const [, y, mo, d, h, mi, s, fraction, sign, zh, zm] = full;
    const date = civil(+y, +mo, +d);
    if (date === undefined || +h > 23 || +mi > 59 || +s > 59) return undefined;
    let offset = 0;
    if (sign) {
      if (+zh > 24 || +zm > 60) return undefined;
      offset = (sign === '-' ? -1 : 1) * (+zh * 3600 + +zm * 60);
    }
    const nanos = fraction ? Number(fraction.slice(0, 9).padEnd(9, '0')) : 0;
    return { seconds: date + +h * 3600 + +mi * 60 + +s - offset, nanos };
  }
  const dateOnly = DATE_ONLY.exec(value);
  if (dateOnly) {
    const date = civil(+dateOnly[1], +dateOnly[2], +dateOnly[3]);
    return date === undefined ? undefined : { seconds: date, nanos: 0 };
  }
  return undefined;
}

/** Seconds from the epoch to midnight UTC of a proleptic Gregorian date, if the date exists. */
function civil(year: number, month: number, day: number): number | undefined {
  if (month < 1 || month > 12 || day < 1) return undefined;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const length = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  if (day > length) return undefined;
  // Days from civil (H. Hinnant's algorithm).
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return (era * 146097 + doe - 719468) * 86400;
}

function parseJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

/** `json.Unmarshal` into `[]string`: `null` is an empty list, a `null` item is "". */
export function parseJsonStringArray(value: string): string[] | undefined {
  const parsed = parseJson(value);
  if (parsed === null) return [];
  if (!Array.isArray(parsed)) return undefined;
  const items: string[] = [];
  for (const item of parsed) {
    if (item === null) items.push('');
    else if (typeof item === 'string') items.push(item);
    else return undefined;
  }
  return items;
}

/** `json.Unmarshal` into `[]float64`: `null` is an empty list, a `null` item is 0, overflow fails. */
export function parseJsonNumberArray(value: string): number[] | undefined {
  const parsed = parseJson(value);
  if (parsed === null) return [];
  if (!Array.isArray(parsed)) return undefined;
  const items: number[] = [];
  for (const item of parsed) {
    if (item === null) items.push(0);
    else if (typeof item === 'number' && Number.isFinite(item)) items.push(item);
    else return undefined;
  }
  return items;
}
