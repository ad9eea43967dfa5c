/**
 * The results view's state in the address: the response filter (`filter`, the JSON the server's `filter`
 * parameter takes) and the trends' range (`days`), in the query string before the hash, so that a view
 * with its filter is a link to share.
 */
import { useEffect, useMemo, useSyncExternalStore } from 'react';
import * as v from 'valibot';
import { useLocation } from 'wouter';
import { encodeFilter, type ResponseFilter, responseFilterSchema } from '../../../domain/surveys/response-filter';
import type { TSurvey } from '../../../domain/surveys/types';

export const TREND_RANGES = [7, 30, 90, 365] as const;
export const DEFAULT_DAYS = 30;

export interface ResultsState {
  filter: ResponseFilter;
  /** The trends' range in days, when the filter has no dates of its own. */
  days: number;
  /** The `filter` parameter was there but is no filter. */
  invalid: boolean;
}

export function parseState(search: string): ResultsState {
  const params = new URLSearchParams(search);
  const text = params.get('filter');
  const daysText = Number(params.get('days'));
  const days = (TREND_RANGES as readonly number[]).includes(daysText) ? daysText : DEFAULT_DAYS;
  if (!text) return { filter: {}, days, invalid: false };
  try {
    const result = v.safeParse(responseFilterSchema, JSON.parse(text));
    if (result.success) return { filter: result.output as ResponseFilter, days, invalid: false };
  } catch {
    // not JSON
  }
  return { filter: {}, days, invalid: true };
}

/** The query string (with its `?`, or empty) of a state. */
export function searchOf(state: Pick<ResultsState, 'filter' | 'days'>): string {
  const params = new URLSearchParams();
  const text = encodeFilter(state.filter);
  if (text) params.set('filter', text);
  if (state.days !== DEFAULT_DAYS) params.set('days', String(state.days));
  const search = params.toString();
  return search ? `?${search}` : '';
}

/** The filter the trends read: the view's, with the chosen range when it names no dates. */
export function trendsFilter(state: Pick<ResultsState, 'filter' | 'days'>, now = new Date()): ResponseFilter {
  if (state.filter.createdAt?.min) return state.filter;
  const min = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (state.days - 1)));
  return { ...state.filter, createdAt: { ...state.filter.createdAt, min: min.toISOString() } };
}

/** How many conditions a filter sets (for the filter button's label). */
export function conditionCount(filter: ResponseFilter): number {
  return (
    (filter.finished === undefined ? 0 : 1) +
    (filter.createdAt?.min ? 1 : 0) +
    (filter.createdAt?.max ? 1 : 0) +
    Object.keys(filter.personAttributes ?? {}).length +
    (filter.tags?.applied?.length ?? 0) +
    (filter.tags?.notApplied?.length ?? 0) +
    Object.keys(filter.data ?? {}).length +
    (filter.flagValues?.length ? 1 : 0)
  );
}

/** The events on which the address changes (wouter sends pushState and replaceState ones). */
const ADDRESS_EVENTS = ['popstate', 'pushState', 'replaceState', 'hashchange'];

function subscribeToAddress(onChange: () => void): () => void {
  for (const name of ADDRESS_EVENTS) addEventListener(name, onChange);
  return () => {
    for (const name of ADDRESS_EVENTS) removeEventListener(name, onChange);
  };
}

/**
 * The state in the address and a setter. The query string is the results page's own: once the address has
 * left this survey's results (the page is remounted at every address, so only the new address tells),
 * it is taken away, so that other pages' addresses stay clean.
 */
export function useResultsState(
  surveyId: string,
): [ResultsState, (next: Pick<ResultsState, 'filter' | 'days'>) => void] {
  const search = useSyncExternalStore(subscribeToAddress, () => window.location.search);
  const [location, navigate] = useLocation();
  const state = useMemo(() => parseState(search), [search]);
  useEffect(
    () => () => {
      const stays = window.location.hash.includes(`/results/${encodeURIComponent(surveyId)}`);
      if (window.location.search && !stays) {
        const url = new URL(window.location.href);
        url.search = '';
        history.replaceState(history.state, '', url.href);
      }
    },
    [surveyId],
  );
  return [state, (next) => navigate(`${location}${searchOf(next) || '?'}`)];
}

/** What each view of the results (summary, trends, responses) shows: a survey of an environment, under a filter. */
export interface ResultsView {
  namespaceKey: string;
  environmentId: string;
  survey: TSurvey;
  filter: ResponseFilter;
}
