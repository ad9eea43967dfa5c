import { act, fireEvent } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeProps, makeSurvey } from './fixtures.js';

type Renderer = typeof import('../../../../widget/render/index.js');

/** The renderer as a page loads it: a fresh module, its idle callbacks on fake timers. */
const load = async (): Promise<Renderer> => {
  vi.resetModules();
  return import('../../../../widget/render/index.js');
};
/** Time passing, `ms` of it. */
const advance = (ms: number) =>
  act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
/** Without requestIdleCallback, each idle step is a timer: runs the ones pending now, not those they add. */
const idlePeriod = () =>
  act(async () => {
    await vi.runOnlyPendingTimersAsync();
  });
const rehearsal = () => [...document.body.children].find((el) => (el as HTMLElement).inert) as HTMLElement | undefined;

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('requestIdleCallback', undefined);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

describe('the rehearsal of a first survey in idle time', () => {
  it('without a survey named: looks up the faces, then draws a dialog shell and a card, inert, each not displayed then laid out hidden, and removes them, one idle period each', async () => {
    const { rehearse } = await load();
    await idlePeriod();
    expect(document.body.children).toHaveLength(0);
    rehearse();
    rehearse();
    // the faces are looked up first, one idle period each (no OffscreenCanvas here: nothing is thrown)
    for (let period = 0; period < 3; period++) {
      await idlePeriod();
      expect(document.body.children).toHaveLength(0);
    }
    // the shell is drawn not displayed (no frame lays it out), then laid out hidden in a period of its own
    await idlePeriod();
    const drawn = rehearsal()!;
    const dialog = () => drawn.shadowRoot!.querySelector('[role="dialog"]')!;
    expect(drawn.style.display).toBe('none');
    expect(dialog().querySelector('#h')).toBeNull();
    await idlePeriod();
    expect(drawn.style.display).toBe('');
    expect(drawn.style.visibility).toBe('hidden');
    // then the card, the same way
    await idlePeriod();
    expect(drawn.style.display).toBe('none');
    expect(dialog().querySelector('#h')!.textContent).toContain('Rehearsal');
    expect(dialog().querySelector('textarea, input')).not.toBeNull();
    // laid out hidden, then removed
    await idlePeriod();
    expect(drawn.isConnected).toBe(false);
    expect(document.body.children).toHaveLength(0);
    expect(document.getElementById('formbricks-web-container')).toBeNull();
  });

  it('waits for the page to load', async () => {
    const { rehearse } = await load();
    vi.spyOn(document, 'readyState', 'get').mockReturnValue('interactive');
    rehearse();
    for (let period = 0; period < 5; period++) await idlePeriod();
    expect(rehearsal()).toBeUndefined();
    window.dispatchEvent(new Event('load'));
    for (let period = 0; period < 4; period++) await idlePeriod();
    expect(rehearsal()).toBeDefined();
  });

  it('waits for an idle period with time enough left for a step', async () => {
    const { rehearse } = await load();
    const periods: ((deadline: IdleDeadline) => void)[] = [];
    vi.stubGlobal('requestIdleCallback', (f: (deadline: IdleDeadline) => void) => periods.push(f));
    const period = (remaining: number) =>
      act(() => periods.shift()!({ timeRemaining: () => remaining, didTimeout: false }));
    rehearse();
    for (let face = 0; face < 3; face++) await period(49);
    await period(5);
    expect(rehearsal()).toBeUndefined();
    await period(49);
    expect(rehearsal()).toBeDefined();
  });

  it('is dropped when a survey is rendered while it is under way', async () => {
    const { renderSurveyModal, rehearse } = await load();
    const props = makeProps(makeSurvey([{ id: 'q1', type: 'openText', headline: 'Name?', required: true }]));
    rehearse();
    for (let period = 0; period < 4; period++) await idlePeriod();
    expect(rehearsal()).toBeDefined();
    act(() => renderSurveyModal(props));
    expect(rehearsal()).toBeUndefined();
    for (let period = 0; period < 5; period++) await idlePeriod();
    expect(rehearsal()).toBeUndefined();
    expect([...document.body.children].map((el) => el.id)).toEqual(['formbricks-web-container']);
    expect(document.getElementById('formbricks-web-container')!.children).toHaveLength(1);
  });
});

describe('a survey held ready by the rehearsal', () => {
  const question = { id: 'q1', type: 'openText', headline: 'Name?', required: true } as const;
  let clock = 0;

  /** The loader's container, and the survey rehearsed in it until it is held ready. */
  const heldReady = async () => {
    const renderer = await load();
    const container = Object.assign(document.createElement('div'), { id: 'formbricks-web-container' });
    document.body.append(container);
    const props = makeProps(makeSurvey([question], { autoClose: 5 }));
    const { survey, brandColor, isBrandingEnabled, placement } = props;
    renderer.rehearse({
      survey,
      brandColor,
      isBrandingEnabled,
      placement,
      clickOutside: true,
      darkOverlay: false,
      highlightBorderColor: null,
    });
    for (let period = 0; period < 7; period++) await idlePeriod();
    const host = container.firstElementChild as HTMLElement;
    return { ...renderer, container, props, host, shadow: host.shadowRoot! };
  };

  beforeEach(() => {
    clock = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => clock);
  });

  it('waits in the container, hidden and inert, on its first card, having reported, timed and focused nothing', async () => {
    const { container, host, shadow, props } = await heldReady();
    expect(container.children).toHaveLength(1);
    expect(host.inert).toBe(true);
    expect(host.style.visibility).toBe('hidden');
    expect(shadow.querySelector('#h')!.textContent).toBe('Name?');
    expect(shadow.activeElement).toBeNull();
    // no auto-close countdown runs on standby
    expect(shadow.querySelector('.ac')).toBeNull();
    await advance(10_000);
    expect(host.isConnected).toBe(true);
    expect(props.onDisplay).not.toHaveBeenCalled();
  });

  it('is revealed when that survey is shown: the same nodes, given the callbacks, reporting, timing and auto-closing from then on', async () => {
    const { container, host, shadow, props, renderSurveyModal } = await heldReady();
    const field = shadow.querySelector('textarea, input');
    clock = 60_000;
    act(() => renderSurveyModal(props));
    expect(container.children).toHaveLength(1);
    expect(container.firstElementChild).toBe(host);
    expect(shadow.querySelector('textarea, input')).toBe(field);
    expect(host.getAttribute('style')).toBeNull();
    expect(host.inert).toBe(false);
    expect(shadow.querySelector('.ac')).not.toBeNull();
    await advance(0);
    expect(props.onDisplay).toHaveBeenCalledTimes(1);
    expect(props.getSetIsError).toHaveBeenCalledWith(expect.any(Function));
    expect(shadow.activeElement).toBe(field);
    // the time on the card counts from when it was shown, not from when it was drawn
    clock = 62_000;
    fireEvent.input(field!, { target: { value: 'Ada' } });
    fireEvent.click(shadow.querySelector('.btn')!);
    expect(props.onResponse).toHaveBeenCalledWith({ data: { q1: 'Ada' }, ttc: { q1: 2000 }, finished: true });
  });

  it('auto-closes from when it is shown', async () => {
    const { props, renderSurveyModal } = await heldReady();
    act(() => renderSurveyModal(props));
    await advance(4_900);
    expect(props.onClose).not.toHaveBeenCalled();
    await advance(200);
    expect(props.onClose).toHaveBeenCalledTimes(1);
  });

  it('is revealed for a survey alike (the loader replaced its state with a sync), and dropped for any other', async () => {
    const alike = await heldReady();
    act(() => alike.renderSurveyModal({ ...alike.props, survey: JSON.parse(JSON.stringify(alike.props.survey)) }));
    expect(alike.container.firstElementChild).toBe(alike.host);
    expect(alike.host.inert).toBe(false);
    document.body.innerHTML = '';

    for (const other of [
      () => makeProps(makeSurvey([{ ...question, id: 'q2', headline: 'Other?' }])),
      (props: ReturnType<typeof makeProps>) => ({
        ...props,
        survey: { ...props.survey, questions: [{ ...question, headline: 'Name, please?' }] },
      }),
    ]) {
      const { container, host, props, renderSurveyModal } = await heldReady();
      const shown = other(props);
      act(() => renderSurveyModal(shown));
      expect(host.isConnected).toBe(false);
      expect(container.children).toHaveLength(1);
      expect(container.firstElementChild!.shadowRoot!.querySelector('#h')!.textContent).toBe(
        shown.survey.questions[0].headline,
      );
      expect(props.onDisplay).not.toHaveBeenCalled();
      document.body.innerHTML = '';
    }
  });
});
