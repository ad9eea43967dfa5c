/** @jsxImportSource preact */
/**
 * The survey renderer: `renderSurveyModal(props)` with the props of @formbricks/surveys 1.6,
 * drawn in a Shadow DOM under #formbricks-web-container.
 */
import { Component, render, type ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { RenderSurveyModalProps } from '../../domain/surveys/types.js';
import { CSS, FACES, textColorOn } from './styles.js';
import { call, Survey } from './Survey.js';

export type { RenderSurveyModalProps };

const FOCUSABLE = 'a[href],button:not([disabled]),input:not([disabled]),textarea:not([disabled]),[tabindex="0"]';
/**
 * The styles, parsed once when the renderer loads (in idle time when the loader prefetched it) rather than
 * while a survey opens, and adopted by every survey's shadow root; a <style> where constructable style
 * sheets are missing.
 */
const sheet = (() => {
  try {
    const constructed = new CSSStyleSheet();
    constructed.replaceSync(CSS);
    return constructed;
  } catch {
    return undefined;
  }
})();

/** A shadow root under `parent` that adopts the survey styles, and the element a survey renders in. */
function shadowMount(parent: HTMLElement): { host: HTMLElement; mount: HTMLElement } {
  const host = parent.appendChild(document.createElement('div'));
  const shadow = host.attachShadow({ mode: 'open' });
  const mount = document.createElement('div');
  if (sheet) shadow.adoptedStyleSheets = [sheet];
  else shadow.append(Object.assign(document.createElement('style'), { textContent: CSS }));
  shadow.append(mount);
  return { host, mount };
}

/** The rehearsal's surveys: a dialog shell (no question), then the parts every card has (headline, text, a field, buttons). */
const rehearsal = (questions: unknown[]) =>
  ({
    survey: { id: '', welcomeCard: { enabled: false }, thankYouCard: { enabled: false }, questions },
    placement: 'bottomRight',
    brandColor: '#000',
    isBrandingEnabled: true,
  }) as unknown as RenderSurveyModalProps;
const SHELL = rehearsal([]);
const CARD = rehearsal([
  { id: 'q', type: 'openText', headline: 'Rehearsal', subheader: 'Drawn once, hidden.', required: false },
]);
/**
 * What an idle period must still have for a rehearsal step to start: a step takes about 5-25 ms of CPU
 * time on a 4x-slowed CPU (docs/decisions.md), and one started late would delay the next frame.
 */
const STEP_MS = 25;

/** A survey has been rendered: the rehearsal would come too late. */
let opened = false;
let rehearsed = false;

/**
 * The first survey drawn on a page pays one-time costs: its code runs cold, and its first style and layout
 * look up the fonts, set up the adopted sheet's rules and shape text (together about half of what opening
 * a survey cost, docs/decisions.md). Beyond @formbricks/surveys, our loader calls this once it knows that a
 * survey could show (widget/core/survey.ts), and they are paid in idle time once the page has loaded, in
 * steps short enough that none is a long task, each in an idle period of its own with time enough left:
 * each face a survey draws with is looked up (on an OffscreenCanvas); a dialog shell is drawn, not
 * displayed, out of the page's flow in an inert shadow root (never seen, focused or announced); it is laid
 * out, hidden, in a step of its own rather than by a frame (which is no idle task); then a card is drawn in
 * its place and laid out the same way; then it is removed.
 */
export const rehearse = (): void => {
  if (rehearsed) return;
  rehearsed = true;
  const idle = window.requestIdleCallback || setTimeout;
  let mounted: { host: HTMLElement; mount: HTMLElement } | undefined;
  /** Hiding is set on the host itself: the survey styles reset what it inherits (:host{all:initial}). */
  const hide = (how: string) => {
    mounted!.host.style.cssText = 'position:fixed;' + how;
  };
  // drawn not displayed, so that the next frame neither styles nor lays it out: the next step does
  const draw = (props: RenderSurveyModalProps) => () => {
    if (!mounted) {
      mounted = shadowMount(document.body);
      mounted.host.inert = true;
    }
    hide('display:none');
    // keyed: the card mounts a new Survey, which picks its first card when it mounts
    render(<Modal key={props.survey.questions.length} props={props} close={() => {}} />, mounted.mount);
  };
  const layOut = () => {
    hide('visibility:hidden');
    mounted!.mount.getBoundingClientRect();
  };
  const steps = [
    ...FACES.map((face) => () => {
      const context = new OffscreenCanvas(1, 1).getContext('2d')!;
      context.font = face;
      context.measureText('Ab1×');
    }),
    draw(SHELL),
    layOut,
    draw(CARD),
    layOut,
  ];
  const remove = () => {
    if (!mounted) return;
    render(null, mounted.mount);
    mounted.host.remove();
  };
  const next = (): void =>
    void idle((deadline?: IdleDeadline) => {
      if (opened) return remove();
      if (deadline && deadline.timeRemaining() < STEP_MS) return next();
      try {
        (steps.shift() || remove)();
      } catch {
        // nothing reaches the host page: the first survey pays this cost, as without this
      }
      if (steps.length || mounted?.host.isConnected) next();
    });
  if (document.readyState === 'complete') next();
  else addEventListener('load', next, { once: true });
};

/** After the last answer the survey stays on screen this long, then closes (unless it redirects). */
const CLOSE_AFTER_FINISH_MS = 3000;

/** Closes the survey instead of letting a rendering error reach the host page. */
class Boundary extends Component<{ onError: () => void; children: ComponentChildren }> {
  override componentDidCatch(err: unknown) {
    console.error('Ensign survey:', err);
    // Not during Preact's own diff: unmounting re-enters render().
    void Promise.resolve().then(this.props.onError);
  }
  render() {
    return this.props.children;
  }
}

function Modal({ props, close }: { props: RenderSurveyModalProps; close: () => void }) {
  const { survey, placement, brandColor, highlightBorderColor } = props;
  const center = placement === 'center';
  const [autoClosing, setAutoClosing] = useState(Boolean(survey.autoClose));
  const dialog = useRef<HTMLDivElement>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the timer restarts only when auto-closing is switched
  useEffect(() => {
    if (!autoClosing) return;
    const timer = setTimeout(close, (survey.autoClose ?? 0) * 1000);
    return () => clearTimeout(timer);
  }, [autoClosing]);

  const onFinished = () => {
    call(props.onFinished);
    if (!survey.redirectUrl) setTimeout(close, CLOSE_AFTER_FINISH_MS);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      close();
    } else if (e.key === 'Tab' && dialog.current) {
      const focusable = Array.from(dialog.current.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
        (el) => !el.closest('[inert]'),
      );
      const active = (dialog.current.getRootNode() as ShadowRoot).activeElement;
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      if (e.shiftKey ? active === first || !focusable.includes(active as HTMLElement) : active === last) {
        e.preventDefault();
        (e.shiftKey ? last : first)?.focus();
      }
    }
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a click on the backdrop closes the survey; Escape does it from the keyboard
    <div
      class={`l${center ? ' c' : ''}${center && props.darkOverlay ? ' dk' : ''}`}
      style={{ '--b': brandColor, '--bt': textColorOn(brandColor), '--hl': highlightBorderColor ?? undefined }}
      onMouseDown={(e) => {
        if (center && props.clickOutside && e.target === e.currentTarget) close();
      }}
    >
      {/* biome-ignore lint/a11y/useKeyWithMouseEvents: a click stops auto-close; a key press does too, through onKeyDown */}
      <div
        ref={dialog}
        role="dialog"
        aria-modal="true"
        aria-labelledby="h"
        class={`m ${placement}${highlightBorderColor ? ' hl' : ''}`}
        onKeyDown={onKeyDown}
        onClick={() => setAutoClosing(false)}
        onMouseOver={() => setAutoClosing(false)}
      >
        {autoClosing && survey.type === 'web' && (
          <div class="ac" style={{ animationDuration: `${survey.autoClose}s` }} />
        )}
        <button type="button" class="x" aria-label="Close survey" onClick={close}>
          ×
        </button>
        <Survey {...props} onFinished={onFinished} />
        {props.isBrandingEnabled && <p class="br">Powered by Ensign</p>}
      </div>
    </div>
  );
}

export function renderSurveyModal(props: RenderSurveyModalProps): void {
  opened = true;
  try {
    let container = document.getElementById('formbricks-web-container');
    if (!container) {
      container = document.createElement('div');
      container.id = 'formbricks-web-container';
      document.body.appendChild(container);
    }
    const { host, mount } = shadowMount(container);
    const previousFocus = document.activeElement as HTMLElement | null;

    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      // A loader that removed the container itself (reset, logout) already knows the survey is gone.
      const removedByHost = !host.isConnected;
      render(null, mount);
      host.remove();
      if (removedByHost) return;
      if (previousFocus?.isConnected) previousFocus.focus();
      call(() => props.onClose());
    };
    render(
      <Boundary onError={close}>
        <Modal props={props} close={close} />
      </Boundary>,
      mount,
    );
  } catch (err) {
    console.error('Ensign survey: could not render', err);
  }
}
