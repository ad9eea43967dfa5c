import type { TResponseUpdate } from '../../domain/surveys/types.js';
import type { Client } from './api.js';
import { error } from './log.js';
import { QUEUE_KEY, randomId, read, write } from './store.js';

/** One survey run: where its responses go, the ids learnt so far and the updates not yet sent. */
export interface Run {
  id: string;
  apiHost: string;
  environmentId: string;
  surveyId: string;
  userId: string | null;
  displayId?: string;
  responseId?: string;
  queue: TResponseUpdate[];
  /** The tab that sends this run and when it last wrote it. */
  owner?: string;
  at?: number;
}

/** Attempts per update (spelled out in `pass`). */
export const ATTEMPTS = 2;
const PAUSE = 1000;
/** Another tab's runs are taken over once it has not written them for this long (it has gone). */
const ADOPT_AFTER = 120_000;
let tab: string | undefined;
/**
 * This tab: kept in session storage, so a reload still owns the runs it left. Read when first needed, not
 * as the chunk loads during init(): a page's first use of session storage waits for the browser to load it.
 */
const thisTab = (): string => {
  if (tab) return tab;
  let id = randomId();
  try {
    id = sessionStorage[QUEUE_KEY] ||= id;
  } catch {
    // no session storage: the runs are this page's only
  }
  return (tab = id);
};

/** The loader's client API (this module is part of the survey chunk). */
let client: (apiHost: string, environmentId: string) => Client;
export const adoptClient = (loaderClient: typeof client): void => {
  client = loaderClient;
};

let live: Run | null = null;
let onFailed: () => void = () => {};
let onSent: (update: TResponseUpdate, run: Run) => void = () => {};
let busy = false;
let again = false;

const stored = (): Run[] => read<Run[]>(QUEUE_KEY) || [];

/** Writes a run's state as this tab's (dropped once nothing is left to send). */
const persist = (run: Run): void => {
  const runs = stored().filter((r) => r.id !== run.id);
  run.owner = thisTab();
  run.at = Date.now();
  if (run.queue.length) runs.push(run);
  write(QUEUE_KEY, runs.length ? runs : null);
};

const mine = (r: Run): boolean => r.owner === thisTab() || Date.now() - (r.at || 0) > ADOPT_AFTER;

/**
 * Starts the run of the survey now on screen; its failures and each update sent reach the survey. It stays
 * the live run after the survey closes (a late answer still belongs to it) until the next one starts.
 */
export const start = (
  run: Omit<Run, 'queue'>,
  failed: () => void,
  sent: (update: TResponseUpdate, run: Run) => void,
): Run => {
  live = { ...run, queue: [] };
  onFailed = failed;
  onSent = sent;
  return live;
};
export const stop = (): void => {
  live = null;
};

/** A run that is no longer live may have moved on in storage: work on that copy. */
const current = (run: Run): Run => (run === live ? run : stored().find((r) => r.id === run.id) || run);

const linkDisplay = async (run: Run): Promise<void> => {
  const r = await client(run.apiHost, run.environmentId).display.update(run.displayId!, {
    responseId: run.responseId!,
  });
  if (!r.ok) error('Failed to update display, proceeding with the response.');
};

/** The display of a run was created: link it now if its response already exists. */
export const setDisplay = (of: Run, displayId: string): void => {
  const run = current(of);
  run.displayId = displayId;
  persist(run);
  if (run.responseId) void linkDisplay(run);
};

export const add = (to: Run, update: TResponseUpdate): void => {
  const run = current(to);
  run.queue.push(update);
  persist(run);
  void flush();
};

/** The first update creates the response, later ones update it by id. */
const send = async (run: Run, update: TResponseUpdate): Promise<boolean> => {
  const { response } = client(run.apiHost, run.environmentId);
  if (run.responseId) return (await response.update({ ...update, responseId: run.responseId })).ok;
  const r = await response.create({ ...update, surveyId: run.surveyId, userId: run.userId, singleUseId: null });
  const id = r.ok && r.data?.id;
  if (typeof id !== 'string') return (error('Could not create response'), false);
  run.responseId = id;
  // stored before anything else, so that a reload updates this response instead of creating another
  persist(run);
  if (run.displayId) await linkDisplay(run);
  return true;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends every unsent update of this tab and of tabs that have gone, the live run first, one request
 * at a time. Each update gets 2 attempts, 1 s apart; then the live survey shows its error (with retry)
 * and that run waits for the next flush (a retry, a new answer, the network coming back, the 30 s tick,
 * a reload) while other runs go on.
 */
export const flush = async (): Promise<void> => {
  again = true;
  if (busy) return;
  busy = true;
  try {
    while (again) {
      again = false;
      await pass();
    }
  } finally {
    busy = false;
  }
};

const pass = async (): Promise<void> => {
  const failed: string[] = [];
  const next = (): Run | undefined =>
    live?.queue.length && !failed.includes(live.id)
      ? live
      : stored().find((r) => r.id !== live?.id && r.queue.length && !failed.includes(r.id) && mine(r));
  for (let run: Run | undefined; (run = next()); ) {
    const update = run.queue[0];
    // 2 attempts (ATTEMPTS), PAUSE apart
    const ok = (await send(run, update)) || (await sleep(PAUSE), await send(run, update));
    if (ok) run.queue.shift();
    else {
      error('Failed to send response after 2 attempts.');
      failed.push(run.id);
    }
    // a failed run is still this page's to retry
    persist(run);
    if (run === live) ok ? onSent(update, run) : onFailed();
  }
};
