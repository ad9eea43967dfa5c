import { act } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeProps, makeSurvey } from './fixtures.js';

type Renderer = typeof import('../../../../widget/render/index.js');

/** The renderer as a page loads it: a fresh module, its idle callbacks on fake timers. */
const load = async (): Promise<Renderer> => {
  vi.resetModules();
  return import('../../../../widget/render/index.js');
};
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
  it('when asked (once), looks up the faces, then draws a dialog shell and a card, inert and out of flow, each not displayed then laid out hidden, and removes them, one idle period each', async () => {
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
    expect(drawn.style.position).toBe('fixed');
    expect(dialog().querySelector('#h')).toBeNull();
    await idlePeriod();
    expect(drawn.style.display).toBe('');
    expect(drawn.style.visibility).toBe('hidden');
    // then the card, the same way
    await idlePeriod();
    expect(drawn.style.display).toBe('none');
    expect(dialog().querySelector('#h')!.textContent).toContain('Rehearsal');
    expect(dialog().querySelector('textarea, input')).not.toBeNull();
    await idlePeriod();
    expect(drawn.style.visibility).toBe('hidden');
    expect(drawn.isConnected).toBe(true);
    await idlePeriod();
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

  it('is skipped once a survey has been rendered', async () => {
    const { renderSurveyModal, rehearse } = await load();
    const props = makeProps(makeSurvey([{ id: 'q1', type: 'openText', headline: 'Name?', required: true }]));
    rehearse();
    act(() => renderSurveyModal(props));
    for (let period = 0; period < 5; period++) await idlePeriod();
    expect(rehearsal()).toBeUndefined();
    expect([...document.body.children].map((el) => el.id)).toEqual(['formbricks-web-container']);
  });
});
