/** @jsxImportSource preact */
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TSurvey, TSurveyQuestion } from '../../../../domain/surveys/types.js';
import { Survey } from '../../../../widget/render/Survey.js';
import { makeProps, makeSurvey } from './fixtures.js';

let clock = 0;
beforeEach(() => {
  clock = 0;
  vi.spyOn(performance, 'now').mockImplementation(() => clock);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function setup(questions: TSurveyQuestion[], overrides: Partial<TSurvey> = {}, propOverrides = {}) {
  const props = makeProps(makeSurvey(questions, overrides), propOverrides);
  render(<Survey {...props} />);
  return props;
}
const next = (name = /next|finish/i) => fireEvent.click(screen.getByRole('button', { name }));
const lastResponse = (props: ReturnType<typeof makeProps>) => props.onResponse.mock.calls.at(-1)?.[0];

const base = { required: true } as const;

describe('Survey flow', () => {
  it('calls onDisplay once, after the first card is drawn, and hands over its error and sending-finished setters', async () => {
    const props = setup([{ ...base, id: 'q1', type: 'openText', headline: 'Name?' }]);
    expect(screen.getByRole('heading').textContent).toBe('Name?');
    expect(props.onDisplay).not.toHaveBeenCalled();
    await waitFor(() => expect(props.onDisplay).toHaveBeenCalledTimes(1));
    expect(props.getSetIsError).toHaveBeenCalledWith(expect.any(Function));
    expect(props.getSetIsResponseSendingFinished).toHaveBeenCalledWith(expect.any(Function));
  });

  it('posts the welcome card click with empty ttc, then shows the first question', () => {
    const props = setup([{ ...base, id: 'q1', type: 'openText', headline: 'Name?' }], {
      welcomeCard: { enabled: true, headline: 'Hello <b>there</b>', buttonLabel: 'Start', timeToFinish: true },
    });
    expect(screen.getByRole('heading').innerHTML).toBe('Hello <b>there</b>');
    expect(screen.getByText('Takes less than 1 minute')).toBeTruthy();
    next(/start/i);
    expect(props.onResponse).toHaveBeenCalledWith({ data: { welcomeCard: 'clicked' }, ttc: {}, finished: false });
    expect(screen.getByRole('heading', { name: 'Name?' })).toBeTruthy();
  });

  it('shows the thank-you card after the last question, with recall, and its button once all is sent', () => {
    const props = setup([{ ...base, id: 'name', type: 'openText', headline: 'Name?' }], {
      thankYouCard: {
        enabled: true,
        headline: 'Thanks #recall:name/fallback:friend#',
        buttonLabel: 'Home',
        buttonLink: 'https://example.com/',
      },
    });
    fireEvent.input(screen.getByRole('textbox'), { target: { value: 'Ada' } });
    next(/finish/i);
    expect(lastResponse(props)).toMatchObject({ finished: true });
    expect(screen.getByRole('heading').textContent).toBe('Thanks Ada');
    expect(screen.queryByRole('button', { name: 'Home' })).toBeNull();
    const setSent = props.getSetIsResponseSendingFinished.mock.calls[0][0];
    act(() => setSent(true));
    expect(screen.getByRole('button', { name: 'Home' })).toBeTruthy();
  });

  it('says so when there is nothing to show', () => {
    setup([], { thankYouCard: { enabled: false } });
    expect(screen.getByText('No questions available.')).toBeTruthy();
  });
});

describe('data written per question type', () => {
  it('openText: the text plus the inputType sibling key, input type from inputType', () => {
    const props = setup([
      {
        ...base,
        id: 'q1',
        type: 'openText',
        headline: 'Email?',
        longAnswer: false,
        inputType: 'email',
        placeholder: 'you@x',
      },
      { ...base, id: 'q2', type: 'openText', headline: 'More?', required: false },
    ]);
    const input = screen.getByPlaceholderText('you@x') as HTMLInputElement;
    expect(input.type).toBe('email');
    fireEvent.input(input, { target: { value: 'a@b.c' } });
    next();
    expect(lastResponse(props)).toEqual({ data: { q1: 'a@b.c', inputType: 'email' }, ttc: { q1: 0 }, finished: false });
    expect(screen.getByRole('textbox').tagName).toBe('TEXTAREA');
    next(/finish/i);
    expect(lastResponse(props).data).toEqual({});
  });

  it('multipleChoiceSingle: the label, or the typed other text; Enter on an option submits it', () => {
    const question: TSurveyQuestion = {
      ...base,
      id: 'mc',
      type: 'multipleChoiceSingle',
      headline: 'Pick one',
      choices: [
        { id: 'a', label: 'Alpha' },
        { id: 'b', label: 'Beta' },
        { id: 'other', label: 'Other' },
      ],
      otherOptionPlaceholder: 'Tell us',
    };
    const props = setup([question, { ...question, id: 'mc2' }, { ...question, id: 'mc3' }]);
    fireEvent.click(screen.getByLabelText('Beta'));
    next();
    expect(lastResponse(props).data).toEqual({ mc: 'Beta' });
    fireEvent.click(screen.getByLabelText('Other'));
    fireEvent.input(screen.getByPlaceholderText('Tell us'), { target: { value: 'Gamma' } });
    next();
    expect(lastResponse(props).data).toEqual({ mc2: 'Gamma' });
    fireEvent.keyDown(screen.getByLabelText('Alpha'), { key: 'Enter' });
    expect(lastResponse(props)).toMatchObject({ data: { mc3: 'Alpha' }, finished: true });
  });

  it('multipleChoiceSingle: shuffling keeps every choice and "other" last', () => {
    const choices = Array.from({ length: 8 }, (_, i) => ({ id: `c${i}`, label: `Choice ${i}` }));
    setup([
      {
        ...base,
        id: 'mc',
        type: 'multipleChoiceSingle',
        headline: 'Pick',
        shuffleOption: 'exceptLast',
        choices: [...choices, { id: 'other', label: 'Other' }],
      },
    ]);
    const labels = screen.getAllByRole('radio').map((r) => r.parentElement!.textContent);
    expect([...labels].sort()).toEqual([...choices.map((c) => c.label), 'Other'].sort());
    expect(labels.slice(-2)).toEqual(['Choice 7', 'Other']);
  });

  it('multipleChoiceMulti: the ticked labels in the order ticked, plus the other text', () => {
    const props = setup([
      {
        ...base,
        id: 'mm',
        type: 'multipleChoiceMulti',
        headline: 'Pick many',
        choices: [
          { id: 'a', label: 'Alpha' },
          { id: 'b', label: 'Beta' },
          { id: 'c', label: 'Gamma' },
          { id: 'other', label: 'Other' },
        ],
      },
    ]);
    fireEvent.click(screen.getByLabelText('Gamma'));
    fireEvent.keyDown(screen.getByLabelText('Alpha'), { key: 'Enter' });
    fireEvent.click(screen.getByLabelText('Beta'));
    fireEvent.click(screen.getByLabelText('Beta'));
    fireEvent.click(screen.getByLabelText('Other'));
    fireEvent.input(screen.getByPlaceholderText('Please specify'), { target: { value: 'Delta' } });
    next(/finish/i);
    expect(lastResponse(props).data).toEqual({ mm: ['Gamma', 'Alpha', 'Delta'] });
  });

  it('nps: required submits on click; optional selects and submits with Next', () => {
    const props = setup([
      { ...base, id: 'n1', type: 'nps', headline: 'Recommend?', lowerLabel: 'Not likely', upperLabel: 'Very likely' },
      { ...base, id: 'n2', type: 'nps', headline: 'Again?', lowerLabel: 'No', upperLabel: 'Yes', required: false },
    ]);
    expect(screen.getAllByRole('button', { pressed: false })).toHaveLength(11);
    expect(screen.queryByRole('button', { name: /next/i })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: '9' }));
    expect(lastResponse(props).data).toEqual({ n1: 9 });
    fireEvent.click(screen.getByRole('button', { name: '0' }));
    expect(props.onResponse).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: '0' }).getAttribute('aria-pressed')).toBe('true');
    next(/finish/i);
    expect(lastResponse(props).data).toEqual({ n2: 0 });
  });

  it.each([
    ['number', 3],
    ['number', 10],
    ['star', 5],
    ['star', 7],
    ['smiley', 3],
    ['smiley', 4],
    ['smiley', 5],
    ['smiley', 7],
    ['smiley', 10],
  ] as const)('rating %s with range %i: items 1..range, the chosen integer', (scale, range) => {
    const props = setup([
      { ...base, id: 'r', type: 'rating', headline: 'Rate', scale, range, lowerLabel: 'Bad', upperLabel: 'Good' },
    ]);
    const items = screen.getAllByRole('button', { pressed: false });
    expect(items).toHaveLength(range);
    const name = scale === 'number' ? String(range) : `${range} of ${range}`;
    fireEvent.click(screen.getByRole('button', { name }));
    expect(lastResponse(props)).toMatchObject({ data: { r: range }, finished: true });
  });

  it('cta: "clicked" (opening an external URL) or "dismissed"', () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const props = setup([
      {
        ...base,
        id: 'c1',
        type: 'cta',
        headline: 'Read',
        html: '<p>Body <em>text</em></p>',
        buttonLabel: 'Go',
        buttonExternal: true,
        buttonUrl: 'https://example.com/go',
      },
      {
        ...base,
        id: 'c2',
        type: 'cta',
        headline: 'Maybe',
        buttonLabel: 'Sure',
        buttonExternal: false,
        required: false,
        dismissButtonLabel: 'No thanks',
      },
    ]);
    expect(screen.getByText('text').tagName).toBe('EM');
    next(/go/i);
    expect(lastResponse(props).data).toEqual({ c1: 'clicked' });
    expect(open).toHaveBeenCalledWith('https://example.com/go', '_blank', 'noopener');
    next(/no thanks/i);
    expect(lastResponse(props).data).toEqual({ c2: 'dismissed' });
  });

  it('consent: "accepted" when ticked, "dismissed" when unticked again, nothing when untouched', () => {
    const props = setup([
      { ...base, id: 'k1', type: 'consent', headline: 'Terms', html: '<p>Read them</p>', label: 'I agree' },
      { ...base, id: 'k2', type: 'consent', headline: 'Mail', label: 'Send me mail', required: false },
      { ...base, id: 'k3', type: 'consent', headline: 'News', label: 'Send me news', required: false },
    ]);
    fireEvent.click(screen.getByLabelText('I agree'));
    next();
    expect(lastResponse(props).data).toEqual({ k1: 'accepted' });
    fireEvent.click(screen.getByLabelText('Send me mail'));
    fireEvent.keyDown(screen.getByLabelText('Send me mail'), { key: 'Enter' });
    next();
    expect(lastResponse(props).data).toEqual({ k2: 'dismissed' });
    next(/finish/i);
    expect(lastResponse(props).data).toEqual({});
  });

  it('pictureSelection: choice ids, one or many', () => {
    const choices = [
      { id: 'p1', imageUrl: 'https://example.com/1.png' },
      { id: 'p2', imageUrl: 'https://example.com/2.png' },
      { id: 'p3', imageUrl: 'javascript:alert(1)' },
    ];
    const props = setup([
      { ...base, id: 'ps', type: 'pictureSelection', headline: 'One', allowMulti: false, choices },
      { ...base, id: 'pm', type: 'pictureSelection', headline: 'Many', allowMulti: true, choices },
    ]);
    expect(document.querySelectorAll('img')[2].getAttribute('src')).toBeNull();
    next();
    expect(screen.getByRole('alert').textContent).toBe('Please select an option');
    expect(props.onResponse).not.toHaveBeenCalled();
    fireEvent.click(screen.getByLabelText('Picture 1'));
    fireEvent.click(screen.getByLabelText('Picture 2'));
    next();
    expect(lastResponse(props).data).toEqual({ ps: ['p2'] });
    fireEvent.click(screen.getByLabelText('Picture 1'));
    fireEvent.click(screen.getByLabelText('Picture 3'));
    next(/finish/i);
    expect(lastResponse(props).data).toEqual({ pm: ['p1', 'p3'] });
  });

  it('date: YYYY-MM-DD, required checked in code', () => {
    const props = setup([{ ...base, id: 'd', type: 'date', headline: 'When?', format: 'd-M-y' }]);
    next(/finish/i);
    expect(screen.getByRole('alert').textContent).toBe('Please select a date.');
    fireEvent.input(screen.getByLabelText('When?'), { target: { value: '2024-05-06' } });
    next(/finish/i);
    expect(lastResponse(props).data).toEqual({ d: '2024-05-06' });
  });

  it('cal: "booked" once the booking link was opened', () => {
    const props = setup([{ ...base, id: 'cal', type: 'cal', headline: 'Book', calUserName: 'rick/intro' }]);
    next(/finish/i);
    expect(screen.getByRole('alert').textContent).toBe('Please book an appointment');
    const link = screen.getByRole('link');
    expect(link.getAttribute('href')).toBe('https://cal.com/rick/intro');
    link.addEventListener('click', (e) => e.preventDefault());
    fireEvent.click(link);
    next(/finish/i);
    expect(lastResponse(props).data).toEqual({ cal: 'booked' });
  });
});

describe('file upload', () => {
  const question: TSurveyQuestion = {
    ...base,
    id: 'f',
    type: 'fileUpload',
    headline: 'Upload',
    allowMultipleFiles: true,
    maxSizeInMB: 1,
    allowedFileExtensions: ['png', 'pdf'],
  };
  const pick = (files: File[]) => {
    const input = screen.getByLabelText('Upload') as HTMLInputElement;
    Object.defineProperty(input, 'files', { value: files, configurable: true });
    fireEvent.change(input);
  };

  it('uploads through onFileUpload and submits the URL list', async () => {
    const props = setup([question]);
    expect((screen.getByLabelText('Upload') as HTMLInputElement).accept).toBe('.png,.pdf');
    pick([new File(['x'], 'a.png', { type: 'image/png' }), new File(['y'], 'b.pdf', { type: 'application/pdf' })]);
    await waitFor(() => expect(screen.getByText('b.pdf')).toBeTruthy());
    expect(screen.getByText('a.png')).toBeTruthy();
    expect(props.onFileUpload).toHaveBeenCalledWith(expect.any(File), {
      allowedFileExtensions: ['png', 'pdf'],
      surveyId: props.survey.id,
    });
    next(/finish/i);
    expect(lastResponse(props).data).toEqual({
      f: ['/storage/env/private/a--fid--1234.png', '/storage/env/private/b--fid--1234.pdf'],
    });
  });

  it('rejects wrong types and large files, reports upload errors, and requires a file', async () => {
    const tooLarge = Object.assign(new Error('File size exceeds the 10 MB limit'), { name: 'FileTooLargeError' });
    const props = setup(
      [question],
      {},
      { onFileUpload: vi.fn().mockRejectedValueOnce(tooLarge).mockRejectedValueOnce(new Error('boom')) },
    );
    pick([new File(['x'], 'a.exe', { type: 'application/x-msdownload' })]);
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('a.exe: this file type is not allowed'));
    pick([new File([new Uint8Array(2 * 1024 * 1024)], 'big.png', { type: 'image/png' })]);
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('File should be less than 1 MB'));
    pick([new File(['x'], 'a.png', { type: 'image/png' })]);
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('File size exceeds the 10 MB limit'));
    pick([new File(['x'], 'a.png', { type: 'image/png' })]);
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Upload failed! Please try again.'));
    next(/finish/i);
    expect(screen.getByRole('alert').textContent).toBe('Please upload a file');
    expect(props.onResponse).not.toHaveBeenCalled();
  });

  it('submits "skipped" when optional and empty', () => {
    const props = setup([{ ...question, required: false }]);
    next(/finish/i);
    expect(lastResponse(props).data).toEqual({ f: 'skipped' });
  });
});

describe('logic, back button, ttc and progress', () => {
  const questions: TSurveyQuestion[] = [
    {
      ...base,
      id: 'q1',
      type: 'multipleChoiceSingle',
      headline: 'Plan?',
      choices: [
        { id: 'a', label: 'Free' },
        { id: 'b', label: 'Paid' },
      ],
      logic: [
        { condition: 'equals', value: 'Paid', destination: 'q3' },
        { condition: 'equals', value: 'Free', destination: 'end' },
      ],
    },
    { ...base, id: 'q2', type: 'openText', headline: 'Why?' },
    { ...base, id: 'q3', type: 'cta', headline: 'Thanks for paying', buttonExternal: false, buttonLabel: 'OK' },
    {
      ...base,
      id: 'q4',
      type: 'rating',
      headline: 'Rate',
      scale: 'number',
      range: 5,
      lowerLabel: 'a',
      upperLabel: 'b',
    },
  ];

  it('jumps to the destination, ends the survey on "end"', () => {
    const props = setup(questions);
    fireEvent.click(screen.getByLabelText('Free'));
    next();
    expect(lastResponse(props)).toMatchObject({ data: { q1: 'Free' }, finished: true });
    expect(screen.getByRole('heading').textContent).toBe('Thank you!');
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
  });

  it('goes back along the path taken, keeps answers, adds time to ttc and records "" for a CTA', () => {
    const props = setup(questions);
    expect(screen.queryByRole('button', { name: 'Back' })).toBeNull();
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('50'); // q1 can jump to "end", so it counts as the middle of the survey
    clock = 1000;
    fireEvent.click(screen.getByLabelText('Paid'));
    next();
    expect(lastResponse(props)).toEqual({ data: { q1: 'Paid' }, ttc: { q1: 1000 }, finished: false });
    expect(screen.getByRole('heading').textContent).toBe('Thanks for paying');
    clock = 1500;
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(lastResponse(props)).toEqual({ data: { q3: '' }, ttc: { q1: 1000, q3: 500 }, finished: false });
    expect(screen.getByRole('heading').textContent).toBe('Plan?');
    expect((screen.getByLabelText('Paid') as HTMLInputElement).checked).toBe(true);
    clock = 1700;
    next();
    expect(lastResponse(props).ttc).toEqual({ q1: 1200, q3: 500 });
    clock = 2000;
    next(/ok/i);
    expect(lastResponse(props)).toEqual({ data: { q3: 'clicked' }, ttc: { q1: 1200, q3: 800 }, finished: false });
    expect(screen.getByRole('heading').textContent).toBe('Rate');
  });

  it('does not count time while the tab is hidden', () => {
    const props = setup([questions[1]]);
    const hidden = vi.spyOn(document, 'hidden', 'get');
    clock = 100;
    hidden.mockReturnValue(true);
    document.dispatchEvent(new Event('visibilitychange'));
    clock = 5000;
    hidden.mockReturnValue(false);
    document.dispatchEvent(new Event('visibilitychange'));
    clock = 5300;
    fireEvent.input(screen.getByRole('textbox'), { target: { value: 'x' } });
    next(/finish/i);
    expect(lastResponse(props).ttc).toEqual({ q2: 400 });
  });

  it('hides the progress bar when the survey styling says so', () => {
    setup(questions, { styling: { hideProgressBar: true } });
    expect(screen.queryByRole('progressbar')).toBeNull();
  });
});

describe('retry card', () => {
  it('replaces the card while sending is stuck and retries on demand', () => {
    const props = setup([
      { ...base, id: 'q1', type: 'openText', headline: 'Name?' },
      { ...base, id: 'q2', type: 'openText', headline: 'Age?' },
    ]);
    fireEvent.input(screen.getByRole('textbox'), { target: { value: 'Ada' } });
    next();
    const setIsError = props.getSetIsError.mock.calls[0][0];
    act(() => setIsError(true));
    expect(screen.getByRole('heading').textContent).toBe('Your feedback is stuck :(');
    expect(screen.getByText('Name?')).toBeTruthy();
    expect(screen.getByText('Ada')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(props.onRetry).toHaveBeenCalledTimes(1);
    act(() => setIsError(false));
    expect(screen.getByRole('heading', { name: 'Age?' })).toBeTruthy();
  });
});
