/** @jsxImportSource preact */
/**
 * The survey renderer: `renderSurveyModal(props)` with the props of @formbricks/surveys 1.6,
 * drawn in a Shadow DOM under #formbricks-web-container.
 */
import { Component, render, type ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { RenderSurveyModalProps, SurveyLook } from '../../domain/surveys/types.js';
import { CONTAINER_ID } from '../core/container.js';
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

type Mounted = { host: HTMLElement; mount: HTMLElement };

/** A shadow root under `parent` that adopts the survey styles, and the element a survey renders in. */
function shadowMount(parent: HTMLElement): Mounted {
  const host = parent.appendChild(document.createElement('div'));
  const shadow = host.attachShadow({ mode: 'open' });
  const mount = document.createElement('div');
  if (sheet) shadow.adoptedStyleSheets = [sheet];
  else shadow.append(Object.assign(document.createElement('style'), { textContent: CSS }));
  shadow.append(mount);
  return { host, mount };
}

/** Unmounts what was drawn in a shadow root and removes its host. */
const unmount = ({ host, mount }: Mounted): void => {
  render(null, mount);
  host.remove();
};

/**
 * The rehearsal's surveys: a dialog shell (no question), then, when the loader names no survey that could
 * show, a card with the parts every card has (headline, text, a field, buttons).
 */
const rehearsalLook = (questions: unknown[]) =>
  ({
    survey: { id: '', welcomeCard: { enabled: false }, thankYouCard: { enabled: false }, questions },
    placement: 'bottomRight',
    brandColor: '#000',
    isBrandingEnabled: true,
  }) as unknown as SurveyLook;
const SHELL = rehearsalLook([]);
const CARD = rehearsalLook([
  { id: 'q', type: 'openText', headline: 'Rehearsal', subheader: 'Drawn once, hidden.', required: false },
]);
/**
 * What an idle period must still have for a rehearsal step to start: a step takes about 5-25 ms of CPU
 * time on a 4x-slowed CPU (docs/decisions.md), and one started late would delay the next frame.
 */
const STEP_MS = 25;

/** A survey has been rendered: a rehearsal still under way would come too late. */
let opened = false;
let rehearsed = false;
/** The rehearsal's shadow root; once it is done, `ready` is the survey it holds, drawn and hidden. */
let rehearsal: (Mounted & { ready?: SurveyLook['survey'] }) | undefined;

const dropRehearsal = (): void => {
  if (!rehearsal) return;
  unmount(rehearsal);
  rehearsal = undefined;
};

/**
 * The survey as drawn: the rehearsal draws the same tree, so that a survey shown from it is only updated.
 * Keyed by the survey object: another survey mounts a new Survey, which picks its first card as it mounts.
 */
const drawn = (props: RenderSurveyModalProps, close: () => void, standby?: boolean) => (
  <Boundary onError={close}>
    <Modal key={props.survey} props={props} close={close} standby={standby} />
  </Boundary>
);

/**
 * The first survey drawn on a page pays one-time costs: its code runs cold, its nodes are created, and its
 * first style and layout look up the fonts, set up the adopted sheet's rules and shape text
 * (docs/decisions.md). Beyond @formbricks/surveys, our loader calls this once it knows that a survey could
 * show (widget/core/survey.ts), naming the survey it expects to show first (`first`, its callbacks left
 * out), and these costs are paid in idle time once the page has loaded, in steps short enough that none is
 * a long task, each in an idle period of its own with time enough left: each face a survey draws with is
 * looked up (on an OffscreenCanvas); a dialog shell is drawn, not displayed, in an inert shadow root in the
 * survey container (never seen, focused or announced); it is laid out, hidden, in a step of its own rather
 * than by a frame (which is no idle task); then the first card of `first` is drawn in its place on standby
 * (it reports, times and focuses nothing) and laid out the same way. It stays there, hidden: when that
 * survey is shown, `renderSurveyModal` hands it its callbacks and reveals it, and the next frame has little
 * more than painting to do. Without `first`, a card with the parts every card has is drawn, laid out and
 * removed.
 */
export const rehearse = (first?: SurveyLook): void => {
  if (rehearsed) return;
  rehearsed = true;
  const idle = window.requestIdleCallback || setTimeout;
  /**
   * Hiding is set on the host itself, as the survey styles reset what it inherits (:host{all:initial}), and
   * is important, as no style sheet of the page may undo it.
   */
  const hide = (how: string) => {
    rehearsal!.host.style.cssText = how + '!important';
  };
  // drawn not displayed, so that the next frame neither styles nor lays it out: the next step does
  const draw = (look: SurveyLook) => () => {
    if (!rehearsal) {
      rehearsal = shadowMount(document.getElementById(CONTAINER_ID) || document.body);
      rehearsal.host.inert = true;
    }
    hide('display:none');
    render(drawn(look as RenderSurveyModalProps, dropRehearsal, true), rehearsal.mount);
  };
  const layOut = () => {
    hide('visibility:hidden');
    rehearsal!.mount.getBoundingClientRect();
  };
  const steps = [
    ...FACES.map((face) => () => {
      const context = new OffscreenCanvas(1, 1).getContext('2d')!;
      context.font = face;
      context.measureText('Ab1×');
    }),
    draw(SHELL),
    layOut,
    draw(first || CARD),
    layOut,
  ];
  const next = (): void =>
    void idle((deadline?: IdleDeadline) => {
      // a survey shown meanwhile has dropped the rehearsal, or taken it
      if (opened) return;
      if (deadline && deadline.timeRemaining() < STEP_MS) return next();
      try {
        steps.shift()!();
      } catch {
        // nothing reaches the host page: the first survey pays what this step would have
      }
      if (steps.length) next();
      else if (first && rehearsal) rehearsal.ready = first.survey;
      else dropRehearsal();
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

function Modal({ props, close, standby }: { props: RenderSurveyModalProps; close: () => void; standby?: boolean }) {
  const { survey, placement, brandColor, highlightBorderColor } = props;
  const center = placement === 'center';
  const [autoClosing, setAutoClosing] = useState(Boolean(survey.autoClose));
  const dialog = useRef<HTMLDivElement>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the timer (re)starts only when auto-closing is switched or the survey shows
  useEffect(() => {
    if (!autoClosing || standby) return;
    const timer = setTimeout(close, (survey.autoClose ?? 0) * 1000);
    return () => clearTimeout(timer);
  }, [autoClosing, standby]);

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
        {autoClosing && !standby && survey.type === 'web' && (
          <div class="ac" style={{ animationDuration: `${survey.autoClose}s` }} />
        )}
        <button type="button" class="x" aria-label="Close survey" onClick={close}>
          ×
        </button>
        <Survey {...props} onFinished={onFinished} standby={standby} />
        {props.isBrandingEnabled && <p class="br">Powered by Ensign</p>}
      </div>
    </div>
  );
}

/**
 * Draws the survey as a card in the flow of the element with id `containerId` (as @formbricks/surveys 1.6's
 * `renderSurveyInline`; the console's editor previews with it); called again, it redraws that card.
 */
export function renderSurveyInline(props: RenderSurveyModalProps & { containerId: string }): void {
  try {
    const parent = document.getElementById(props.containerId)!;
    const shadow = (parent.firstElementChild as HTMLElement | null)?.shadowRoot;
    const mount = shadow ? (shadow.lastChild as HTMLElement) : shadowMount(parent).mount;
    const { brandColor } = props;
    render(
      <Boundary onError={() => render(null, mount)}>
        <div class="l in" style={{ '--b': brandColor, '--bt': textColorOn(brandColor) }}>
          <div class="m">
            <Survey {...props} />
          </div>
        </div>
      </Boundary>,
      mount,
    );
  } catch (err) {
    console.error('Ensign survey: could not render', err);
  }
}

/**
 * Draws the survey in a new shadow root in the container; a survey that the rehearsal holds ready there
 * (or one alike) is revealed instead, and any other rehearsal dropped.
 */
export function renderSurveyModal(props: RenderSurveyModalProps): void {
  opened = true;
  try {
    let container = document.getElementById(CONTAINER_ID);
    if (!container) {
      container = document.createElement('div');
      container.id = CONTAINER_ID;
      document.body.appendChild(container);
    }
    const held = rehearsal?.ready;
    // the same survey, or one alike (the loader's state is replaced by every sync)
    const ready =
      held &&
      rehearsal!.host.parentNode === container &&
      (held === props.survey || JSON.stringify(held) === JSON.stringify(props.survey))
        ? rehearsal
        : undefined;
    if (!ready) dropRehearsal();
    rehearsal = undefined;
    const { host, mount } = ready || shadowMount(container);
    const previousFocus = document.activeElement as HTMLElement | null;

    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      // A loader that removed the container itself (reset, logout) already knows the survey is gone.
      const removedByHost = !host.isConnected;
      unmount({ host, mount });
      if (removedByHost) return;
      if (previousFocus?.isConnected) previousFocus.focus();
      call(() => props.onClose());
    };
    // revealed in the same task as it is drawn, so before the first card takes focus
    if (ready) {
      host.removeAttribute('style');
      host.inert = false;
    }
    // a survey alike is drawn as the one held, which keys the tree held ready
    render(drawn(ready ? { ...props, survey: held! } : props, close), mount);
  } catch (err) {
    console.error('Ensign survey: could not render', err);
  }
}
