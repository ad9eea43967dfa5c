import { FliptError, GrpcCode } from './flipt/errors.js';

/**
 * How deeply a request body may nest objects and arrays. No request of either API needs more than a
 * few levels; a body nested 50,000 deep parsed fine but overflowed the stack of the code that walked
 * it afterwards (a 500).
 */
export const MAX_JSON_DEPTH = 64;

/** Whether the text holds more than `max` opening brackets: only then can it nest deeper than `max`. */
function opensMoreThan(text: string, max: number): boolean {
  let count = 0;
  for (const bracket of ['{', '[']) {
    for (let i = text.indexOf(bracket); i >= 0; i = text.indexOf(bracket, i + 1)) {
      if (++count > max) return true;
    }
  }
  return false;
}

/** Whether the JSON text nests objects or arrays deeper than `max` (brackets inside strings do not count). */
export function nestsDeeperThan(text: string, max: number): boolean {
  // Most bodies open a few brackets: counting them (natively) spares walking every character.
  if (!opensMoreThan(text, max)) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > max) return true;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return false;
}

/**
 * Flipt's gateway decodes every body as JSON whatever its Content-Type (the Node SDK sends none)
 * and takes an empty body as `{}`.
 */
export function parseJsonBody(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '') return {};
  if (nestsDeeperThan(trimmed, MAX_JSON_DEPTH)) {
    throw new FliptError(GrpcCode.InvalidArgument, `invalid JSON body: nested deeper than ${MAX_JSON_DEPTH} levels`);
  }
  try {
    return JSON.parse(trimmed);
  } catch {
    throw new FliptError(GrpcCode.InvalidArgument, 'invalid JSON body: the request body is not valid JSON');
  }
}
