import type { TActionClassNoCodeConfig, TActionClassPageUrlRule, TSurvey } from '../../domain/surveys/types.js';
import { EXIT_INTENT, SCROLL_50 } from '../../domain/surveys/types.js';
import { client } from './api.js';
import { type Fields, loaded, sendUnsent } from './chunk.js';
import { CONTAINER_ID, removeContainer } from './container.js';
import { emit } from './events.js';
import { debug, flags } from './log.js';
import { q } from './queue.js';
import { must } from './request.js';
import { MINUTE, cfg, expired, iso, peek, save } from './store.js';
import { sync } from './sync.js';
import { prefetch, render } from './widget.js';

/** setEmbeddedData(): hidden fields for every survey shown on this page from now on. */
export const embedded: Fields = {};

/** One of the six URL rules, or undefined for any other rule. */
export const urlMatch = (url: string, value: string, rule: TActionClassPageUrlRule): boolean | undefined => {
  const m = {
    exactMatch: url === value,
    contains: url.includes(value),
    startsWith: url.startsWith(value),
    endsWith: url.endsWith(value),
    notMatch: url !== value,
    notContains: !url.includes(value),
  }[rule];
  // not a prototype member such as "constructor"
  return typeof m === 'boolean' ? m : undefined;
};

/** A click matches when every part given (inner HTML, each CSS selector part, URL) matches; none never does. */
export const clickMatch = (el: Element, c: TActionClassNoCodeConfig | null | undefined): boolean => {
  const html = c?.innerHtml?.value;
  const css = c?.cssSelector?.value;
  const url = c?.pageUrl;
  if (!html && !css && !url?.value) return false;
  if (html && el.innerHTML !== html) return false;
  if (
    css &&
    !css.split(/\s*(?=[.#])/).every((part) => {
      try {
        return el.matches(part);
      } catch {
        return false;
      }
    })
  )
    return false;
  return !url?.value || !url.rule || !!urlMatch(location.href, url.value, url.rule);
};

/** Display percentage: a random number from 1 to 100 must be at most the percentage. */
const sampled = ({ displayPercentage: p }: TSurvey): boolean => !p || Math.floor(Math.random() * 100) + 1 <= p;

/**
 * Tracks an action by its name (a code action's key is its name): posted for an identified person, and
 * shows the first survey it triggers, with the embedded data and the hidden fields given (the 5.x face).
 */
export const track = async (
  name: string,
  properties?: { hiddenFields?: Fields; [k: string]: unknown },
): Promise<void> => {
  const { apiHost, environmentId, userId, state } = cfg();
  const fields = { ...embedded, ...properties?.hiddenFields };
  for (const s of state.surveys) if (s.inlineTriggers?.codeConfig?.identifier === name) await render(s, fields);
  if (userId && name !== EXIT_INTENT && name !== SCROLL_50) {
    must(
      await client(apiHost, environmentId).action.create({ environmentId, userId, name }),
      `Error tracking action ${name}`,
    );
    if (flags.debug_) await sync({ apiHost, environmentId, userId }, true);
  }
  debug(`Formbricks: Action "${name}" tracked`);
  emit('action_tracked', { action: name });
  for (const s of cfg().state.surveys) {
    if (s.triggers.includes(name) && sampled(s)) return render(s, fields);
  }
};

const pageUrlOnly = (c: TActionClassNoCodeConfig | null | undefined) =>
  c?.pageUrl && !c.innerHtml && !c.cssSelector ? c.pageUrl : undefined;

const matchesPage = (p: NonNullable<TActionClassNoCodeConfig['pageUrl']>): boolean => {
  const m = urlMatch(location.href, p.value, p.rule);
  if (m === undefined) throw { code: 'invalid_match_type', message: 'Invalid match type' };
  return m;
};

/** Tracks every no-code action and shows every survey whose no-code trigger passes the test. */
const fire = async (test: (c: TActionClassNoCodeConfig | null | undefined) => unknown): Promise<void> => {
  const { noCodeActionClasses, surveys } = cfg().state;
  for (const a of noCodeActionClasses) if (test(a.noCodeConfig)) await track(a.name);
  for (const s of surveys) if (test(s.inlineTriggers?.noCodeConfig)) await render(s, embedded);
};

export const checkPage = (): Promise<void> => {
  prefetch();
  return fire((c) => {
    const p = pageUrlOnly(c);
    return p && matchesPage(p);
  });
};

const onPage = () => q(true, checkPage);

// A click inside the survey (its close button included, which removes the survey during the click) is
// never a trigger; the path is read now, while the click is being dispatched.
const onClick = (e: Event) => {
  const { target } = e;
  const inSurvey = e.composedPath().some((node) => (node as Element).id === CONTAINER_ID);
  q(true, () => !inSurvey && target instanceof Element && fire((c) => clickMatch(target, c)));
};

const onLeave = (e: Event) => (e as MouseEvent).clientY <= 0 && q(true, track, EXIT_INTENT);

const onOnline = () => sendUnsent(peek()?.apiHost);

let scrolled = false;
const onScroll = () => {
  const y = scrollY;
  if (!y) scrolled = false;
  if (!scrolled && y / (document.documentElement.scrollHeight - innerHeight) >= 0.5) {
    scrolled = true;
    q(true, track, SCROLL_50);
  }
};

/** Every 30 s: re-sync an expired config (a failure extends it), and send responses still waiting. */
const expiryCheck = async (): Promise<void> => {
  const c = cfg();
  sendUnsent(c.apiHost);
  if (!expired(c)) return;
  try {
    await sync(c);
  } catch (e) {
    debug(`Error during expiry check: ${JSON.stringify(e)}. Extending config and try again later.`);
    save({ ...c, expiresAt: iso(2 * MINUTE) });
  }
};

const PAGE_EVENTS = 'hashchange popstate pushstate replacestate load'.split(' ');
const HISTORY = ['pushState', 'replaceState'] as const;
type Patched = History['pushState'] & { fb?: History['pushState'] };
let interval: ReturnType<typeof setInterval> | undefined;

/**
 * Adds or removes every listener. Beyond @formbricks/js, history.pushState and replaceState are
 * wrapped to fire the `pushstate` and `replacestate` events, so single-page apps need no
 * registerRouteChange call; deinit restores them.
 */
export const listen = (on: boolean): void => {
  const method = on ? 'addEventListener' : 'removeEventListener';
  for (const ev of PAGE_EVENTS) window[method](ev, onPage);
  window[method]('scroll', onScroll);
  window[method]('online', onOnline);
  document[method]('click', onClick);
  document.body[method]('mouseleave', onLeave);
  clearInterval(interval);
  if (on) interval = setInterval(() => q(true, expiryCheck), 30_000);
  for (const m of HISTORY) {
    const current = history[m] as Patched;
    if (on ? !current.fb : current.fb) {
      history[m] = on
        ? Object.assign(
            function (this: History, ...args: Parameters<History['pushState']>) {
              current.apply(this, args);
              dispatchEvent(new Event(m.toLowerCase()));
            },
            { fb: current },
          )
        : current.fb!;
    }
  }
};

export const deinit = (): void => {
  removeContainer();
  loaded?.reset();
  listen(false);
  flags.initialized_ = false;
};
