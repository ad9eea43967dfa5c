import { act, fireEvent, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RenderSurveyModalProps, TSurveyQuestion } from '../../../../domain/surveys/types.js';
import { renderSurveyModal } from '../../../../widget/render/index.js';
import { textColorOn } from '../../../../widget/render/styles.js';
import { makeProps, makeSurvey } from './fixtures.js';

const question: TSurveyQuestion = { id: 'q1', type: 'openText', headline: 'Name?', required: true };

function open(overrides: Partial<RenderSurveyModalProps> = {}, surveyOverrides = {}) {
  const props = makeProps(makeSurvey([question], surveyOverrides), overrides);
  act(() => renderSurveyModal(props));
  const container = document.getElementById('formbricks-web-container')!;
  const shadow = container.lastElementChild?.shadowRoot as ShadowRoot;
  return { props, container, shadow, ui: within(shadow as unknown as HTMLElement) };
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

describe('renderSurveyModal', () => {
  it('renders a labelled modal dialog in an open shadow root under a created #formbricks-web-container', async () => {
    const { shadow, ui, props } = open();
    expect(shadow.querySelector('style')).toBeNull();
    const [sheet] = shadow.adoptedStyleSheets;
    expect([...sheet.cssRules].map((rule) => rule.cssText).join('\n')).toContain('.m {');
    const dialog = ui.getByRole('dialog');
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(dialog.className).toBe('m bottomRight');
    expect(ui.getByRole('heading').textContent).toBe('Name?');
    expect(ui.getByText('Powered by Ensign')).toBeTruthy();
    // reported in a later task than the one that drew the first card
    expect(props.onDisplay).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(props.onDisplay).toHaveBeenCalledTimes(1));
  });

  it('reuses an existing container and themes by brand colour', () => {
    const existing = document.createElement('div');
    existing.id = 'formbricks-web-container';
    document.body.append(existing);
    const { container, shadow } = open({
      brandColor: '#fde047',
      highlightBorderColor: '#ff0000',
      isBrandingEnabled: false,
    });
    expect(container).toBe(existing);
    const layer = shadow.querySelector('.l') as HTMLElement;
    expect(layer.style.getPropertyValue('--b')).toBe('#fde047');
    expect(layer.style.getPropertyValue('--bt')).toBe('#000');
    expect(shadow.querySelector('.m')!.classList.contains('hl')).toBe(true);
    expect(shadow.textContent).not.toContain('Powered by');
    expect(textColorOn('#1e293b')).toBe('#fff');
    expect(textColorOn('#fff')).toBe('#000');
  });

  it('moves focus into the survey and keeps Tab inside it', () => {
    const { shadow, ui } = open({}, { questions: [question, { ...question, id: 'q2' }] });
    expect(shadow.activeElement).toBe(ui.getByRole('textbox'));
    const close = ui.getByRole('button', { name: 'Close survey' });
    const nextButton = ui.getByRole('button', { name: 'Next' });
    nextButton.focus();
    fireEvent.keyDown(nextButton, { key: 'Tab' });
    expect(shadow.activeElement).toBe(close);
    fireEvent.keyDown(close, { key: 'Tab', shiftKey: true });
    expect(shadow.activeElement).toBe(nextButton);
  });

  it('closes on Escape and on the close button, calling onClose once and removing the modal', () => {
    const first = open();
    fireEvent.keyDown(first.ui.getByRole('textbox'), { key: 'Escape' });
    expect(first.props.onClose).toHaveBeenCalledTimes(1);
    expect(first.container.children).toHaveLength(0);
    const second = open();
    fireEvent.click(second.ui.getByRole('button', { name: 'Close survey' }));
    expect(second.props.onClose).toHaveBeenCalledTimes(1);
    expect(second.container.children).toHaveLength(0);
  });

  it('centres with an overlay that closes on an outside click only when clickOutside is set', () => {
    const kept = open({ placement: 'center', clickOutside: false, darkOverlay: true });
    const layer = kept.shadow.querySelector('.l') as HTMLElement;
    expect(layer.className).toBe('l c dk');
    fireEvent.mouseDown(layer);
    expect(kept.props.onClose).not.toHaveBeenCalled();
    document.body.innerHTML = '';
    const closing = open({ placement: 'center', clickOutside: true });
    fireEvent.mouseDown(closing.ui.getByRole('dialog'));
    expect(closing.props.onClose).not.toHaveBeenCalled();
    fireEvent.mouseDown(closing.shadow.querySelector('.l')!);
    expect(closing.props.onClose).toHaveBeenCalledTimes(1);
  });

  it('auto-closes after survey.autoClose seconds unless the respondent interacts', () => {
    vi.useFakeTimers();
    const untouched = open({}, { autoClose: 5 });
    expect(untouched.shadow.querySelector('.ac')).not.toBeNull();
    act(() => void vi.advanceTimersByTime(4999));
    expect(untouched.props.onClose).not.toHaveBeenCalled();
    act(() => void vi.advanceTimersByTime(1));
    expect(untouched.props.onClose).toHaveBeenCalledTimes(1);

    const touched = open({}, { autoClose: 5 });
    fireEvent.mouseOver(touched.ui.getByRole('textbox'));
    expect(touched.shadow.querySelector('.ac')).toBeNull();
    act(() => void vi.advanceTimersByTime(10_000));
    expect(touched.props.onClose).not.toHaveBeenCalled();
  });

  it('closes 3 s after the last answer, but not when the survey redirects', () => {
    vi.useFakeTimers();
    const finishing = open();
    fireEvent.input(finishing.ui.getByRole('textbox'), { target: { value: 'Ada' } });
    fireEvent.click(finishing.ui.getByRole('button', { name: 'Finish' }));
    expect(finishing.props.onResponse).toHaveBeenCalledWith(expect.objectContaining({ finished: true }));
    act(() => void vi.advanceTimersByTime(2999));
    expect(finishing.props.onClose).not.toHaveBeenCalled();
    act(() => void vi.advanceTimersByTime(1));
    expect(finishing.props.onClose).toHaveBeenCalledTimes(1);

    document.body.innerHTML = '';
    const replace = vi.fn();
    vi.spyOn(window, 'top', 'get').mockReturnValue({ location: { replace } } as unknown as Window);
    const redirecting = open({}, { redirectUrl: 'https://example.com/done' });
    fireEvent.input(redirecting.ui.getByRole('textbox'), { target: { value: 'Ada' } });
    fireEvent.click(redirecting.ui.getByRole('button', { name: 'Finish' }));
    expect(redirecting.ui.getByText("You're redirected in 5")).toBeTruthy();
    for (let i = 0; i < 5; i++) act(() => void vi.advanceTimersByTime(1000));
    expect(replace).toHaveBeenCalledWith('https://example.com/done');
    expect(redirecting.props.onClose).not.toHaveBeenCalled();
  });

  it('never throws into the page when callbacks fail', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { ui } = open({
      onDisplay: vi.fn(async () => {
        throw new Error('display failed');
      }),
      onResponse: vi.fn(() => {
        throw new Error('response failed');
      }),
      onClose: vi.fn(() => {
        throw new Error('close failed');
      }),
    });
    fireEvent.input(ui.getByRole('textbox'), { target: { value: 'Ada' } });
    expect(() => fireEvent.click(ui.getByRole('button', { name: 'Finish' }))).not.toThrow();
    expect(() => fireEvent.keyDown(ui.getByRole('heading'), { key: 'Escape' })).not.toThrow();
    await vi.waitFor(() => expect(error).toHaveBeenCalledTimes(3));
    expect(() => renderSurveyModal(null as unknown as RenderSurveyModalProps)).not.toThrow();
  });

  it('closes the survey instead of throwing when a malformed survey fails to render', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const broken = {
      id: 'mc',
      type: 'multipleChoiceSingle',
      headline: 'Broken',
      required: true,
    } as unknown as TSurveyQuestion;
    const { props, container } = open({}, { questions: [broken] });
    await vi.waitFor(() => expect(props.onClose).toHaveBeenCalledTimes(1));
    expect(container.children).toHaveLength(0);
    expect(error).toHaveBeenCalled();
  });

  it('stays quiet when the loader removed the container itself, even if a timer fires later', () => {
    vi.useFakeTimers();
    const { props, container } = open({}, { autoClose: 2 });
    container.remove();
    act(() => void vi.advanceTimersByTime(2000));
    expect(props.onClose).not.toHaveBeenCalled();
  });
});

describe('the styles', () => {
  it('are one sheet, parsed once, that every survey adopts', () => {
    const first = open().shadow;
    const second = open().shadow;
    expect(second).not.toBe(first);
    expect(second.adoptedStyleSheets).toHaveLength(1);
    expect(second.adoptedStyleSheets[0]).toBe(first.adoptedStyleSheets[0]);
  });

  it('are a <style> in each shadow root where constructable style sheets are missing', async () => {
    vi.stubGlobal('CSSStyleSheet', undefined);
    vi.resetModules();
    try {
      const { renderSurveyModal: render } = await import('../../../../widget/render/index.js');
      act(() => render(makeProps(makeSurvey([question]))));
      const shadow = document.getElementById('formbricks-web-container')!.lastElementChild!.shadowRoot!;
      expect(shadow.adoptedStyleSheets).toHaveLength(0);
      expect(shadow.querySelector('style')?.textContent).toContain('.m{');
      expect(within(shadow as unknown as HTMLElement).getByRole('dialog')).toBeTruthy();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
