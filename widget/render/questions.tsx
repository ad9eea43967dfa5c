/** @jsxImportSource preact */
import { useMemo, useState } from 'preact/hooks';
import type { JSX } from 'preact';
import type {
  TSurveyChoice,
  TSurveyFileUploadQuestion,
  TSurveyMultipleChoiceQuestion,
  TSurveyQuestion,
  TUploadFileConfig,
} from '../../domain/surveys/types.js';
import type { Answer } from './logic.js';
import { safeUrl, sanitizeHtml } from './sanitize.js';

export const html = (text: string | undefined) => ({ __html: sanitizeHtml(text ?? '') });

/** A sanitised rich-text body; hidden when it has no text (an empty editor paragraph). */
export function Body({ text }: { text?: string }) {
  const clean = sanitizeHtml(text ?? '');
  return clean.replace(/<[^>]*>/g, '').trim() ? <div class="body" dangerouslySetInnerHTML={{ __html: clean }} /> : null;
}

export interface QuestionProps {
  question: TSurveyQuestion;
  value: Answer;
  setValue: (value: Answer) => void;
  submit: (value: Answer) => void;
  /** Absent on the first question. */
  back?: () => void;
  isLast: boolean;
  surveyId: string;
  onFileUpload: (file: File, config?: TUploadFileConfig) => Promise<string>;
}

type BodyProps = QuestionProps & { setError: (message: string) => void };

const INPUT_TYPES: Record<string, string> = { email: 'email', url: 'url', number: 'number', phone: 'tel' };

function OpenText({ question: q, value, setValue }: BodyProps) {
  if (q.type !== 'openText') return null;
  const props = {
    class: 't',
    name: q.id,
    placeholder: q.placeholder,
    required: q.required,
    value: (value as string | undefined) ?? '',
    'aria-labelledby': 'h',
    onInput: (e: JSX.TargetedEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      setValue(e.currentTarget.value || undefined),
  };
  return q.longAnswer === false ? (
    <input
      {...props}
      type={INPUT_TYPES[q.inputType ?? ''] ?? 'text'}
      pattern={q.inputType === 'phone' ? '[0-9+ ]+' : undefined}
    />
  ) : (
    <textarea {...props} rows={3} />
  );
}

function shuffled<T>(items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** Choices in display order: shuffled as configured, the "other" choice always last. */
function orderChoices(q: TSurveyMultipleChoiceQuestion): TSurveyChoice[] {
  const rest = q.choices.filter((c) => c.id !== 'other');
  const other = q.choices.filter((c) => c.id === 'other');
  if (q.shuffleOption === 'all') return [...shuffled(rest), ...other];
  if (q.shuffleOption === 'exceptLast') return [...shuffled(rest.slice(0, -1)), ...rest.slice(-1), ...other];
  return [...rest, ...other];
}

/** Enter on a checkbox or radio acts on it instead of submitting the form. */
const onEnter = (action: () => void) => (e: KeyboardEvent) => {
  if (e.key === 'Enter') {
    e.preventDefault();
    action();
  }
};

function Choices({ question: q, value, setValue, submit }: BodyProps) {
  const mc = q as TSurveyMultipleChoiceQuestion;
  const multi = q.type === 'multipleChoiceMulti';
  // biome-ignore lint/correctness/useExhaustiveDependencies: the shuffled order is kept for the question's lifetime
  const choices = useMemo(() => orderChoices(mc), [q.id]);
  const labels = mc.choices.filter((c) => c.id !== 'other').map((c) => c.label);
  const values = value === undefined ? [] : Array.isArray(value) ? (value as string[]) : [String(value)];
  const picked = values.filter((v) => labels.includes(v));
  const [otherOn, setOtherOn] = useState(values.some((v) => !labels.includes(v)));
  const otherText = values.find((v) => !labels.includes(v)) ?? '';

  const update = (nextPicked: string[], nextOther: boolean, text: string) => {
    setOtherOn(nextOther);
    if (multi) setValue(nextOther && text ? [...nextPicked, text] : nextPicked);
    else setValue(nextOther ? text || undefined : nextPicked[0]);
  };
  const toggle = (label: string) =>
    multi
      ? update(picked.includes(label) ? picked.filter((l) => l !== label) : [...picked, label], otherOn, otherText)
      : update([label], false, '');
  const toggleOther = () => update(multi ? picked : [], multi ? !otherOn : true, otherText);
  const required = q.required && (!multi || (picked.length === 0 && !otherOn));

  return (
    <fieldset aria-labelledby="h" role={multi ? undefined : 'radiogroup'}>
      {choices.map((c) => {
        const isOther = c.id === 'other';
        const checked = isOther ? otherOn : picked.includes(c.label);
        return (
          <label class="ch" key={c.id}>
            <input
              type={multi ? 'checkbox' : 'radio'}
              name={q.id}
              checked={checked}
              required={required}
              onChange={isOther ? toggleOther : () => toggle(c.label)}
              onKeyDown={onEnter(() => {
                if (isOther) toggleOther();
                else if (multi) toggle(c.label);
                else submit(c.label);
              })}
            />
            {c.label}
          </label>
        );
      })}
      {otherOn && (
        <input
          class="t"
          aria-label={choices.find((c) => c.id === 'other')?.label}
          placeholder={mc.otherOptionPlaceholder || 'Please specify'}
          required={q.required}
          value={otherText}
          onInput={(e) => update(picked, true, e.currentTarget.value)}
        />
      )}
    </fieldset>
  );
}

/** Ten faces from unhappy to delighted; ranges below 10 use a subset (as the 1.6 renderer does). */
const FACES: Record<number, number[]> = {
  3: [4, 5, 7],
  4: [4, 5, 6, 7],
  5: [3, 4, 5, 6, 7],
  7: [1, 3, 4, 5, 6, 8, 9],
};
function Face({ mood }: { mood: number }) {
  const curve = 16 + (mood - 4.5) * 1.1;
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true">
      <circle cx="12" cy="12" r="10" />
      <path d={`M9 9.5v.5M15 9.5v.5M8 16Q12 ${curve} 16 16`} />
    </svg>
  );
}
const Star = () => (
  <svg viewBox="0 0 24 24" width="28" height="28" fill="currentColor" aria-hidden="true">
    <path d="M12 2l3 6.9 7.5.6-5.7 4.9 1.7 7.3L12 17.8l-6.5 3.9 1.7-7.3L1.5 9.5 9 8.9z" />
  </svg>
);

function Scale({ question: q, value, setValue, submit }: BodyProps) {
  const nps = q.type === 'nps';
  if (q.type !== 'nps' && q.type !== 'rating') return null;
  const scale = nps ? 'number' : q.scale;
  const range = nps ? 11 : q.range;
  return (
    <fieldset aria-labelledby="h">
      <div class={`sc${scale === 'star' ? ' st' : scale === 'smiley' ? ' sm' : ''}`}>
        {Array.from({ length: range }, (_, i) => {
          const n = nps ? i : i + 1;
          return (
            <button
              type="button"
              key={n}
              class={scale === 'star' && typeof value === 'number' && n <= value ? 'on' : undefined}
              aria-pressed={value === n}
              aria-label={scale === 'number' ? undefined : `${n} of ${range}`}
              onClick={() => (q.required ? submit(n) : setValue(n))}
            >
              {scale === 'star' ? <Star /> : scale === 'smiley' ? <Face mood={FACES[range]?.[i] ?? i} /> : n}
            </button>
          );
        })}
      </div>
      <div class="ends">
        <span>{q.lowerLabel}</span>
        <span>{q.upperLabel}</span>
      </div>
    </fieldset>
  );
}

function Consent({ question: q, value, setValue }: BodyProps) {
  if (q.type !== 'consent') return null;
  const toggle = () => setValue(value === 'accepted' ? 'dismissed' : 'accepted');
  return (
    <>
      <Body text={q.html} />
      <label class="ch">
        <input
          type="checkbox"
          name={q.id}
          required={q.required}
          checked={value === 'accepted'}
          onChange={toggle}
          onKeyDown={onEnter(toggle)}
        />
        {q.label}
      </label>
    </>
  );
}

function Pictures({ question: q, value, setValue }: BodyProps) {
  if (q.type !== 'pictureSelection') return null;
  const picked = Array.isArray(value) ? (value as string[]) : [];
  const toggle = (id: string) =>
    setValue(picked.includes(id) ? picked.filter((p) => p !== id) : q.allowMulti ? [...picked, id] : [id]);
  return (
    <fieldset aria-labelledby="h" class="pg">
      {q.choices.map((c, i) => (
        <label key={c.id} class={picked.includes(c.id) ? 'on' : undefined}>
          <img src={safeUrl(c.imageUrl)} alt="" />
          <input
            type="checkbox"
            name={q.id}
            aria-label={`Picture ${i + 1}`}
            checked={picked.includes(c.id)}
            onChange={() => toggle(c.id)}
            onKeyDown={onEnter(() => toggle(c.id))}
          />
        </label>
      ))}
    </fieldset>
  );
}

function DateInput({ question: q, value, setValue }: BodyProps) {
  if (q.type !== 'date') return null;
  return (
    <>
      <Body text={q.html} />
      <input
        class="t"
        type="date"
        name={q.id}
        aria-labelledby="h"
        value={(value as string | undefined) ?? ''}
        onInput={(e) => setValue(e.currentTarget.value || undefined)}
      />
    </>
  );
}

const EXTENSIONS: Record<string, string> = { plain: 'txt' };
/** The name a respondent uploaded, from a stored file URL (`name--fid--uuid.ext`). */
const fileName = (url: string) => {
  const last = decodeURIComponent(url.split('/').pop() ?? url);
  const [name, rest] = last.split('--fid--');
  return rest === undefined ? name : `${name}${rest.slice(rest.lastIndexOf('.'))}`;
};

function FileUpload({ question, value, setValue, setError, surveyId, onFileUpload }: BodyProps) {
  const q = question as TSurveyFileUploadQuestion;
  const [busy, setBusy] = useState(false);
  const urls = Array.isArray(value) ? (value as string[]) : [];
  const allowed = q.allowedFileExtensions ?? [];

  const upload = async (files: File[]) => {
    setError('');
    let list = urls;
    for (const file of q.allowMultipleFiles ? files : files.slice(0, 1)) {
      const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
      if (allowed.length && !allowed.some((a) => a === ext || a === file.type.split('/')[1] || EXTENSIONS[a] === ext)) {
        setError(`${file.name}: this file type is not allowed`);
        continue;
      }
      if (q.maxSizeInMB && file.size > q.maxSizeInMB * 1024 * 1024) {
        setError(`File should be less than ${q.maxSizeInMB} MB`);
        continue;
      }
      setBusy(true);
      try {
        const url = await onFileUpload(file, { allowedFileExtensions: q.allowedFileExtensions, surveyId });
        list = q.allowMultipleFiles ? [...list, url] : [url];
        setValue(list);
      } catch (err) {
        setError(
          (err as Error)?.name === 'FileTooLargeError' ? (err as Error).message : 'Upload failed! Please try again.',
        );
      }
      setBusy(false);
    }
  };

  return (
    <>
      <label
        class="drop"
        onDragOver={(e) => e.preventDefault()}
        onDrop={(e) => {
          e.preventDefault();
          void upload(Array.from(e.dataTransfer?.files ?? []));
        }}
      >
        <input
          class="sr"
          type="file"
          name={q.id}
          aria-labelledby="h"
          multiple={q.allowMultipleFiles}
          accept={allowed.map((a) => `.${EXTENSIONS[a] ?? a}`).join(',') || undefined}
          onChange={(e) => {
            const input = e.currentTarget;
            void upload(Array.from(input.files ?? [])).then(() => (input.value = ''));
          }}
        />
        <span aria-live="polite">{busy ? 'Uploading…' : 'Click or drag to upload files.'}</span>
      </label>
      {urls.length > 0 && (
        <ul class="files">
          {urls.map((url) => (
            <li key={url}>
              {fileName(url)}
              <button
                type="button"
                aria-label={`Remove ${fileName(url)}`}
                onClick={() => setValue(urls.filter((u) => u !== url))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function Cal({ question: q, setValue }: BodyProps) {
  if (q.type !== 'cal') return null;
  return (
    <a
      class="cal"
      href={`https://cal.com/${encodeURI(q.calUserName)}`}
      target="_blank"
      rel="noopener noreferrer"
      onClick={() => setValue('booked')}
    >
      Book an appointment on cal.com (opens in a new tab)
    </a>
  );
}

function Cta({ question: q }: BodyProps) {
  return q.type === 'cta' ? <Body text={q.html} /> : null;
}

const BODIES: Record<TSurveyQuestion['type'], (props: BodyProps) => JSX.Element | null> = {
  openText: OpenText,
  multipleChoiceSingle: Choices,
  multipleChoiceMulti: Choices,
  nps: Scale,
  rating: Scale,
  cta: Cta,
  consent: Consent,
  pictureSelection: Pictures,
  date: DateInput,
  fileUpload: FileUpload,
  cal: Cal,
};

/** The value to submit, or a message when a required answer is missing that native validation cannot catch. */
function finalValue(q: TSurveyQuestion, value: Answer): { value?: Answer; error?: string } {
  const empty = value === undefined || (Array.isArray(value) && value.length === 0);
  switch (q.type) {
    case 'cta':
      return { value: 'clicked' };
    case 'fileUpload':
      return empty ? (q.required ? { error: 'Please upload a file' } : { value: 'skipped' }) : { value };
    case 'date':
      return q.required && empty ? { error: 'Please select a date.' } : { value };
    case 'cal':
      return q.required && empty ? { error: 'Please book an appointment' } : { value };
    case 'pictureSelection':
    case 'nps':
    case 'rating':
      return q.required && empty ? { error: 'Please select an option' } : { value };
    default:
      return { value };
  }
}

export function Question(props: QuestionProps) {
  const { question: q, value, back, isLast } = props;
  const [error, setError] = useState('');
  const Render = BODIES[q.type];
  const onSubmit = (e: Event) => {
    e.preventDefault();
    const result = finalValue(q, value);
    if (result.error) return setError(result.error);
    if (q.type === 'cta' && q.buttonExternal) {
      const url = safeUrl(q.buttonUrl);
      if (url) window.open(url, '_blank', 'noopener');
    }
    props.submit(result.value);
  };
  // Required NPS and rating questions submit on selection, so they show no Next button until answered.
  const showNext = !((q.type === 'nps' || q.type === 'rating') && q.required && value === undefined);
  return (
    <form onSubmit={onSubmit}>
      {safeUrl(q.imageUrl) && <img class="qi" src={safeUrl(q.imageUrl)} alt="" />}
      <h2 class="h" id="h">
        <span dangerouslySetInnerHTML={html(q.headline)} />
        {!q.required && <span class="o"> Optional</span>}
      </h2>
      {q.subheader && <p class="sub" dangerouslySetInnerHTML={html(q.subheader)} />}
      <Render {...props} setError={setError} />
      {error && (
        <p class="err" role="alert">
          {error}
        </p>
      )}
      <div class="nav">
        {back && (
          <button type="button" class="bk" onClick={back}>
            {q.backButtonLabel || 'Back'}
          </button>
        )}
        {q.type === 'cta' && !q.required && (
          <button type="button" class="bk" onClick={() => props.submit('dismissed')}>
            {q.dismissButtonLabel || 'Skip'}
          </button>
        )}
        {showNext && (
          <button type="submit" class="btn">
            {q.buttonLabel || (isLast ? 'Finish' : 'Next')}
          </button>
        )}
      </div>
    </form>
  );
}
