/**
 * Lists of names that both the survey schemas (schema.ts) and code without valibot (the widget's
 * loader, through types.ts) read.
 */

/** URL rules of a page-URL trigger, compared against the full `location.href`. */
export const URL_RULES = ['exactMatch', 'contains', 'startsWith', 'endsWith', 'notMatch', 'notContains'] as const;
export type TActionClassPageUrlRule = (typeof URL_RULES)[number];
