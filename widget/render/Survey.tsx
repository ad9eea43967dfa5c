/** @jsxImportSource preact */
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { JSX } from 'preact';
import type {
  RenderSurveyModalProps,
  TResponseData,
  TResponseTtc,
  TSurveyQuestion,
} from '../../domain/surveys/types.js';
import { nextQuestionId, progressSteps, timeToFinish, type Answer } from './logic.js';
import { Body, html, Question } from './questions.js';
import { recall } from './recall.js';
import { safeUrl } from './sanitize.js';

export type SurveyProps = Omit<RenderSurveyModalProps, 'onClose' | 'placement' | 'clickOutside' | 'darkOverlay'> & {
  /** Drawn ahead of time and hidden (index.tsx): reports, times and focuses nothing until shown. */
  standby?: boolean;
};

/** Calls a host callback so that neither a throw nor a rejected promise reaches the page. */
export function call<A extends unknown[]>(fn: ((...args: A) => unknown) | undefined, ...args: A): void {
  try {
    Promise.resolve(fn?.(...args)).catch((err) => console.error('Ensign survey:', err));
  } catch (err) {
    console.error('Ensign survey:', err);
  }
}

/** Milliseconds spent on the current card, not counting time while the tab was hidden; runs once shown. */
function useStopwatch(card: string, standby?: boolean) {
  const watch = useRef({ start: performance.now() as number | null, spent: 0 });
  // biome-ignore lint/correctness/useExhaustiveDependencies: the stopwatch restarts when the card changes or shows
  useEffect(() => {
    watch.current = { start: performance.now(), spent: 0 };
  }, [card, standby]);
  useEffect(() => {
    if (standby) return;
    const onVisibility = () => {
      const w = watch.current;
      if (document.hidden && w.start !== null) {
        w.spent += performance.now() - w.start;
        w.start = null;
      } else if (!document.hidden && w.start === null) w.start = performance.now();
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => document.removeEventListener('visibilitychange', onVisibility);
  }, [standby]);
  return () => {
    const w = watch.current;
    return w.spent + (w.start === null ? 0 : performance.now() - w.start);
  };
}

const FOCUS_FIRST = 'input,textarea,[aria-pressed],a.cal,.btn';

export function Survey(props: SurveyProps) {
  const { survey, standby } = props;
  const questions = survey.questions;
  const [current, setCurrent] = useState(survey.welcomeCard.enabled ? 'start' : (questions[0]?.id ?? 'end'));
  const [history, setHistory] = useState<string[]>([]);
  const [answers, setAnswers] = useState<Record<string, Answer>>({});
  const [isError, setIsError] = useState(false);
  const [allSent, setAllSent] = useState(!props.getSetIsResponseSendingFinished);
  const ttc = useRef<TResponseTtc>({});
  const elapsed = useStopwatch(current, standby);
  const root = useRef<HTMLDivElement>(null);
  const progress = useMemo(() => progressSteps(questions), [questions]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the display is reported once, when the survey shows
  useEffect(() => {
    if (standby) return;
    // in a task of its own: the loader stores the display and sends it, which need not delay the first card
    setTimeout(() => call(props.onDisplay));
    setAllSent(!props.getSetIsResponseSendingFinished);
    call(props.getSetIsError, setIsError);
    call(props.getSetIsResponseSendingFinished, setAllSent);
  }, [standby]);

  // Before the card is painted, so that no keystroke typed as it appears lands outside it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: focus moves only when the card changes or shows
  useLayoutEffect(() => {
    if (standby || props.autoFocus === false) return;
    const el = root.current;
    const first = el?.querySelector<HTMLElement>(FOCUS_FIRST);
    (first && !first.closest('[inert]') ? first : el)?.focus();
  }, [current, isError, standby]);

  const send = (data: TResponseData, finished: boolean) => {
    call(props.onResponse, { data, ttc: { ...ttc.current }, finished });
    if (finished) {
      call(() => window.parent.postMessage('formbricksSurveyCompleted', '*'));
      call(props.onFinished);
    }
  };
  const addTime = (id: string) => {
    ttc.current = { ...ttc.current, [id]: (ttc.current[id] ?? 0) + elapsed() };
  };
  const go = (id: string) => {
    setHistory((h) => [...h, current]);
    setCurrent(id);
  };

  const index = questions.findIndex((q) => q.id === current);
  const shown: TSurveyQuestion | undefined =
    questions[index] ??
    (current === 'end' && !survey.thankYouCard.enabled
      ? questions.find((q) => q.id === history[history.length - 1])
      : undefined);
  const withRecall = (text?: string) => (text ? recall(text, answers) : text);

  const submit = (q: TSurveyQuestion, value: Answer) => {
    addTime(q.id);
    const data: TResponseData = {};
    if (value !== undefined) data[q.id] = value;
    if (q.type === 'openText' && q.inputType) data.inputType = q.inputType;
    setAnswers((a) => ({ ...a, [q.id]: value }));
    const next = nextQuestionId(questions, q, value);
    send(data, next === 'end');
    go(next);
  };

  const back = (q: TSurveyQuestion) => {
    addTime(q.id);
    // As in the 1.6 renderer, leaving a CTA backwards records "" and a consent re-sends its current value.
    if (q.type === 'cta') send({ [q.id]: '' }, false);
    const consent = answers[q.id];
    if (q.type === 'consent' && consent !== undefined) send({ [q.id]: consent }, false);
    const h = history.filter((id) => id !== 'start');
    const previous = h.pop() ?? questions[index - 1]?.id;
    setHistory(h);
    if (previous) setCurrent(previous);
  };

  let card: JSX.Element;
  if (isError) {
    card = (
      <div>
        <h2 class="h" id="h">
          Your feedback is stuck :(
        </h2>
        <p class="sub">Your answers could not be sent yet. Please retry; nothing you entered is lost.</p>
        <dl>
          {questions
            .filter((q) => answers[q.id] !== undefined)
            .map((q) => (
              <>
                <dt dangerouslySetInnerHTML={html(withRecall(q.headline))} />
                <dd>{([] as unknown[]).concat(answers[q.id]).join(', ')}</dd>
              </>
            ))}
        </dl>
        <div class="nav">
          <button type="button" class="btn" onClick={() => call(props.onRetry)}>
            Retry
          </button>
        </div>
      </div>
    );
  } else if (current === 'start') {
    const welcome = survey.welcomeCard;
    card = (
      <div>
        {safeUrl(welcome.fileUrl) && <img class="logo" src={safeUrl(welcome.fileUrl)} alt="Logo" />}
        <h2 class="h" id="h" dangerouslySetInnerHTML={html(welcome.headline)} />
        <Body text={welcome.html} />
        <div class="nav">
          {welcome.timeToFinish && !welcome.showResponseCount && <p class="meta">Takes {timeToFinish(questions)}</p>}
          {welcome.showResponseCount && (props.responseCount ?? 0) > 3 && (
            <p class="meta">{props.responseCount} people responded</p>
          )}
          <button
            type="button"
            class="btn"
            onClick={() => {
              send({ welcomeCard: 'clicked' }, !questions.length);
              go(questions[0]?.id ?? 'end');
            }}
          >
            {welcome.buttonLabel || 'Next'}
          </button>
        </div>
      </div>
    );
  } else if (current === 'end' && survey.thankYouCard.enabled) {
    card = (
      <ThankYou
        {...props}
        allSent={allSent}
        headline={withRecall(survey.thankYouCard.headline)}
        subheader={withRecall(survey.thankYouCard.subheader)}
      />
    );
  } else if (shown) {
    const q = { ...shown, headline: withRecall(shown.headline) ?? '', subheader: withRecall(shown.subheader) };
    card = (
      <div inert={current === 'end'}>
        <Question
          key={q.id}
          question={q}
          value={answers[q.id]}
          setValue={(v) => setAnswers((a) => ({ ...a, [q.id]: v }))}
          submit={(v) => submit(shown, v)}
          back={index > 0 ? () => back(shown) : undefined}
          isLast={index === questions.length - 1}
          surveyId={survey.id}
          onFileUpload={props.onFileUpload}
        />
      </div>
    );
  } else {
    card = <p class="sub">No questions available.</p>;
  }

  const width = current === 'end' ? 1 : index < 0 ? 0 : progress[index];
  return (
    <>
      <div class="s" ref={root} tabIndex={-1}>
        {card}
      </div>
      {!survey.styling?.hideProgressBar && (
        <div
          class="pb"
          role="progressbar"
          aria-label="Survey progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.floor(width * 100)}
        >
          <div style={{ width: `${Math.floor(width * 100)}%` }} />
        </div>
      )}
    </>
  );
}

type ThankYouProps = SurveyProps & { allSent: boolean; headline?: string; subheader?: string };

/** Leaves the page for `url` at the top level (the survey may run inside a frame). */
function navigate(url: string) {
  try {
    (window.top ?? window).location.replace(url);
  } catch {
    window.location.replace(url);
  }
}

function ThankYou({ survey, allSent, headline, subheader, isRedirectDisabled }: ThankYouProps) {
  const { buttonLabel, buttonLink, imageUrl } = survey.thankYouCard;
  const redirect = isRedirectDisabled ? undefined : safeUrl(survey.redirectUrl);
  const link = safeUrl(buttonLink);
  const [countdown, setCountdown] = useState(5);
  useEffect(() => {
    if (!redirect) return;
    if (countdown === 0) return navigate(redirect);
    const timer = setTimeout(() => setCountdown(countdown - 1), 1000);
    return () => clearTimeout(timer);
  }, [countdown, redirect]);
  return (
    <div class="ty">
      {safeUrl(imageUrl) ? (
        <img class="qi" src={safeUrl(imageUrl)} alt="" />
      ) : (
        <svg viewBox="0 0 24 24" aria-hidden="true">
          <circle cx="12" cy="12" r="10" />
          <path d="M7.5 12.5l3 3 6-6" />
        </svg>
      )}
      <h2 class="h" id="h" dangerouslySetInnerHTML={html(headline)} />
      {subheader && <p class="sub" dangerouslySetInnerHTML={html(subheader)} />}
      {redirect && <p class="meta">You're redirected in {countdown}</p>}
      {buttonLabel && link && allSent && (
        <div class="nav">
          <button type="button" class="btn" onClick={() => navigate(link)}>
            {buttonLabel}
          </button>
        </div>
      )}
    </div>
  );
}
